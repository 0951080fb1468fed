# The arena image: this checkout at /opt/arena, installed as the README's first command installs
# it, plus Ray for the cluster recipes (experiments/cluster/kuberay-rayjob.yaml names this image).
# CPU by default; a CUDA base image for GPU nodes (the NVIDIA container toolkit passes the GPU in):
#
#   docker build -t ghcr.io/example/arena:latest .
#   docker build -t ghcr.io/example/arena:cuda --build-arg BASE=nvidia/cuda:12.8.1-cudnn-runtime-ubuntu24.04 .
#   docker build -t arena:core --build-arg EXTRAS= .          # the README's core install alone
#
# tests/test_dockerfile.py checks that the install step is the README's (no network needed).
ARG BASE=python:3.11-slim
FROM ${BASE}
ARG EXTRAS=ray
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONUNBUFFERED=1 \
    VIRTUAL_ENV=/opt/venv PATH=/opt/venv/bin:$PATH ARENA_PROGRESS=0
# a CUDA base image has no Python: the distribution's python3 (3.11 or newer), in a venv either way
RUN if ! command -v python3 >/dev/null 2>&1; then \
      apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        python3 python3-venv python3-pip && rm -rf /var/lib/apt/lists/*; \
    fi && python3 -m venv /opt/venv
WORKDIR /opt/arena
COPY . /opt/arena
# the README's first command, its install half
RUN pip install torch==2.13.0 && pip install -e .
# the extras the cluster recipes need (Ray); EXTRAS= leaves the README's core install alone
RUN if [ -n "$EXTRAS" ]; then pip install -e ".[$EXTRAS]"; fi
CMD ["arena", "--help"]
