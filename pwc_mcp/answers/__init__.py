"""Answers: what a tool result holds. The versioned output models and their projections from
catalog rows, the additions beside `data`, the text a content-only client reads, and the one
stable message per failure class. Answers read no cache and no request: they are pure
functions of a payload."""
