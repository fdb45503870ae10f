"""Serving: the uvicorn process itself. Which event loop and HTTP parser it runs (runtime),
socket-level deadlines and a connection cap (connections), and a real server on a loopback
socket in a thread (localserver), shared by `pwc-mcp` and the sample catalog."""
