# pwc-mcp: the hosted Papers With Code MCP server (POST /mcp, GET /health, /.well-known/mcp, /docs).
#
#   docker build -t pwc-mcp .
#   docker run -p 127.0.0.1:7860:7860 -e PWC_MCP_CURSOR_KEY_CURRENT=... pwc-mcp
#   docker run -p 127.0.0.1:7860:7860 pwc-mcp pwc-mcp --sample-catalog   # offline demo
#
# On the VPS, behind nginx, run it with `--network host -e PWC_MCP_HOST=127.0.0.1`: through a
# published port every request arrives from the Docker bridge, not from loopback, so nginx's
# X-Forwarded-For would be ignored and all clients would share one rate-limit budget.
# No secret is baked in: PWC_MCP_CURSOR_KEY_CURRENT (and _PREVIOUS) come from the runtime
# environment; without one the server signs cursors with an ephemeral key and warns.
# Set PWC_MCP_PUBLIC_URL (https://paperswithcode.co, or the Space's https://....hf.space) so
# /.well-known/mcp advertises it with a public cache lifetime. Without nginx in front (a Space)
# the server's own socket deadlines and connection cap (pwc_mcp.serving.connections) hold the line.

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# -- build: the locked dependencies and the project wheel, into /opt/venv -------------------------
FROM ${PYTHON_IMAGE} AS build

ARG UV_VERSION=0.13.9
RUN pip install --no-cache-dir --disable-pip-version-check "uv==${UV_VERSION}"

ENV UV_PROJECT_ENVIRONMENT=/opt/venv \
    UV_PYTHON_DOWNLOADS=never \
    UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_NO_CACHE=1

WORKDIR /src
# Dependencies first (their layer survives source changes), exactly as uv.lock pins them.
COPY pyproject.toml uv.lock README.md ./
RUN uv sync --frozen --no-dev --extra redis --no-install-project --python /usr/local/bin/python
# Then the project itself, built as a wheel and installed non-editable.
COPY pwc_core ./pwc_core
COPY pwc_cli ./pwc_cli
COPY pwc_mcp ./pwc_mcp
RUN uv sync --frozen --no-dev --extra redis --no-editable --python /usr/local/bin/python

# -- runtime ------------------------------------------------------------------------------------
FROM ${PYTHON_IMAGE}

LABEL org.opencontainers.image.title="pwc-mcp" \
      org.opencontainers.image.description="Papers With Code MCP server" \
      org.opencontainers.image.licenses="Apache-2.0"

ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PWC_MCP_HOST=0.0.0.0 \
    PORT=7860

# uid 1000: the user a Hugging Face Docker Space runs as.
RUN groupadd --gid 1000 app \
    && useradd --uid 1000 --gid app --no-create-home --home-dir /nonexistent \
       --shell /usr/sbin/nologin app

COPY --from=build /opt/venv /opt/venv

USER 1000:1000
WORKDIR /tmp
EXPOSE 7860

# Host allowlist: the check sends a Host the server accepts - 127.0.0.1:$PORT (allowed by
# default), a loopback entry of PWC_MCP_ALLOWED_HOSTS if it lists one, else its first entry.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os,sys,urllib.request as u; p=os.environ.get('PORT') or '7860'; e=[x.strip() for x in os.environ.get('PWC_MCP_ALLOWED_HOSTS','').split(',') if x.strip()]; h=next((x.replace(':*',':'+p) for x in e if x.startswith(('127.0.0.1:','localhost:'))), e[0].removesuffix(':*') if e else '127.0.0.1:'+p); r=u.urlopen(u.Request('http://127.0.0.1:'+p+'/health', headers={'Host': h}), timeout=4); sys.exit(0 if r.status == 200 else 1)"]

CMD ["pwc-mcp"]
