package io.sluice.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A {@code host:port} argument; IPv6 hosts go in brackets, {@code [::1]:7355}. A coordinator's HTTP
 * address may start with {@code https://} (HTTPS) or {@code http://}.
 */
record HostPort(String host, int port, boolean https) {
    HostPort(String host, int port) {
        this(host, port, false);
    }

    static HostPort parse(String address) {
        boolean https = address.startsWith("https://");
        String text = https ? address.substring("https://".length())
                : address.startsWith("http://") ? address.substring("http://".length()) : address;
        if (text.endsWith("/")) {
            text = text.substring(0, text.length() - 1);
        }
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new TypeConversionException("'" + text + "' is not HOST:PORT");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + text + "' has no numeric port");
        }
        if (port < 1 || port > 65535) {
            throw new TypeConversionException("port " + port + " in '" + text + "' is out of range");
        }
        return new HostPort(host, port, https);
    }

    /** The host as it goes into a URI or a Pekko address. */
    String uriHost() {
        return host.indexOf(':') >= 0 ? "[" + host + "]" : host;
    }

    @Override
    public String toString() {
        return uriHost() + ":" + port;
    }

    static final class Converter implements ITypeConverter<HostPort> {
        @Override
        public HostPort convert(String value) {
            return parse(value);
        }
    }
}
