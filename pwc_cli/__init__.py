"""Read-only command-line client for the public Papers With Code catalog API v1."""

__version__ = "0.3.0"
