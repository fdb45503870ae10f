"""The site: the pages and documents served beside /mcp. The landing page, the client set-up
snippets, the MCP Server Card, the example arguments every page shows, and documents served
once as bytes with a strong ETag."""
