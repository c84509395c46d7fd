"""Deployment files and the code that writes or sizes them (see the README, "Scaling out")."""
