# A conventional image for the hosted demo (not buildable on the development machines,
# which have no Docker engine). Hosted mode caps each session's sizes (see ui/settings.py).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    ATTENTION_HOSTED=1 \
    STREAMLIT_SERVER_HEADLESS=true \
    STREAMLIT_SERVER_FILE_WATCHER_TYPE=none

WORKDIR /app
RUN useradd --create-home learner
# Optionally point pip at PyTorch's CPU-only wheel index for a much smaller image:
#   docker build --build-arg PIP_EXTRA_INDEX_URL=<cpu wheel index> -t attention-app .
ARG PIP_EXTRA_INDEX_URL=""
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY --chown=learner . .
USER learner

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://localhost:8501/_stcore/health', timeout=4).status == 200 else 1)"

CMD ["python", "-m", "ui.shell.serve", "app.py", "--server.port=8501", "--server.address=0.0.0.0"]
