"""Deployment files and the code that writes or sizes them (see docs/deploying.md)."""
