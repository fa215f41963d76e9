# ralph-gate in a container: the static binary on Alpine, with git.
#
#   docker build --build-arg VERSION=1.2.3 -t ralph-gate .
#   docker run --rm -v "$PWD:/work" ralph-gate analyze origin/main HEAD
#
# The image analyzes (analyze, compare --report ...); it holds no language
# toolchains, so compare's collectors that run tests need an image that has
# them. See docs/docker-and-release.md.

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=devel
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" \
	-o /out/ralph-gate ./cmd/ralph-gate

FROM alpine:3.22
# git for the repository the user mounts; safe.directory '*' because the
# mounted workspace belongs to another user than the one the image runs as.
RUN apk add --no-cache git \
	&& git config --system --add safe.directory '*' \
	&& adduser -D -u 10001 -h /home/ralph-gate ralph-gate
COPY --from=build /out/ralph-gate /usr/local/bin/ralph-gate
USER ralph-gate
WORKDIR /work
ENTRYPOINT ["ralph-gate"]
CMD ["--help"]
