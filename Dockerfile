# The Sluice image: one image for coordinator, worker and client (see docker-compose.yml).
#
# Build the jar on the host first; this file only copies it:
#   mvn -DskipTests package && docker build -t sluice .
# Then e.g. `docker run --rm sluice sql --coordinator HOST:8080 -e "..."`.
ARG BASE_IMAGE=eclipse-temurin:17-jre
FROM ${BASE_IMAGE}

# Installed layout that bin/sluice knows: /opt/sluice/{bin/sluice, sluice-cli-*.jar, lib/}.
# bin/sluice runs the jar with lib/* next to it on the class path (plus SLUICE_CLASSPATH, --jars).
COPY cli/target/lib/ /opt/sluice/lib/
COPY cli/target/sluice-cli-*.jar /opt/sluice/
COPY bin/sluice /opt/sluice/bin/sluice
# Logging: conf/logback.xml (replace it with a volume, or point SLUICE_LOG_CONF elsewhere); each node
# writes /opt/sluice/logs/<node>.log besides `docker logs`. Writable by any user, since compose may
# run the nodes as the host's user (docker-compose.yml).
COPY conf/logback.xml /opt/sluice/conf/logback.xml
RUN chmod 755 /opt/sluice/bin/sluice && ln -s /opt/sluice/bin/sluice /usr/local/bin/sluice \
    && groupadd --system --gid 10001 sluice \
    && useradd --system --uid 10001 --gid sluice --home-dir /data --no-create-home --shell /usr/sbin/nologin sluice \
    && mkdir -p /data /opt/sluice/logs && chown sluice:sluice /data && chmod 1777 /opt/sluice/logs
ENV SLUICE_LOG_DIR=/opt/sluice/logs

# Heap sized from the container's memory limit; override or extend at run time.
ENV SLUICE_JAVA_OPTS="-XX:MaxRAMPercentage=70"
WORKDIR /data
# Never root: a compromised node process owns only what user sluice may touch (docs/security.md).
USER 10001:10001

# Exec form and bin/sluice's `exec java`: the JVM is PID 1, gets SIGTERM from `docker stop` and
# runs its shutdown hooks, so nodes leave the cluster cleanly.
ENTRYPOINT ["/opt/sluice/bin/sluice"]
CMD ["--help"]
