"""Charts of a leaderboard payload, drawn without a plotting library from the chart model
(pwc_core.chart, the same model the leaderboard app draws): the scatter with its frontier and
the SOTA-over-time step chart as a standalone SVG (`pwc benchmark --chart FILE.svg`), and a
compact Unicode step chart for a terminal. Pure functions of the payload, except
`pwc_cli.charts.output`, which writes the file.
"""
