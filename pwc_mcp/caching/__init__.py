"""Caching: upstream answers kept per family (level 1, in process; level 2, shared through
Redis), single flight within and across replicas, versioned Markdown chunks, and tool results
remembered for as long as the answers they were made from. Caching never imports answers,
site or tools: it keeps bytes and parsed bodies, not what a tool makes of them."""
