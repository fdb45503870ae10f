"""Storage the replicas share (Redis): its health, and what to do while it fails. Used by the
shared cache and by the shared rate-limit windows alike."""
