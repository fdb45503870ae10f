"""Human-readable views of command payloads, one module per domain."""
