# A Swift builder image made from a local base image and a Swift toolchain already on the host,
# for machines that reach Debian's mirror but no image registry (see compose/local-images.sh).
# Build context: the toolchain's root (the directory holding usr/bin/swift).
ARG BASE_IMAGE=safewalk/bookworm
FROM ${BASE_IMAGE}
# What the official swift:*-bookworm images install, plus our C libraries.
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        binutils git gnupg2 libc6-dev libcurl4-openssl-dev libedit2 libgcc-12-dev libpython3-dev \
        libsqlite3-0 libstdc++-12-dev libxml2-dev libncurses-dev libz3-dev pkg-config tzdata \
        zlib1g-dev ca-certificates libmosquitto-dev libsqlite3-dev \
    && rm -rf /var/lib/apt/lists/*
COPY usr /usr
RUN swift --version
