"""Observability for operators: /metrics in the Prometheus text format (metrics) and the
OpenTelemetry export of spans through an allowlist (tracing). Both read only closed
vocabularies: the edge's labels, the declared routes, tool and prompt names; never a request's
content."""
