package io.sluice.shuffle;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.sluice.common.settings.Settings;

/**
 * The Netty transport of the shuffle service: native epoll where its library loads (Linux on
 * x86-64), NIO otherwise. {@code -Dsluice.shuffle.transport=nio} forces NIO.
 */
final class ShuffleTransport {
    static final boolean EPOLL = !"nio".equalsIgnoreCase(Settings.systemProperty(ShuffleSettingsDeclaration.TRANSPORT))
            && Epoll.isAvailable();

    private ShuffleTransport() {
    }

    static String name() {
        return EPOLL ? "epoll" : "nio";
    }

    static IoHandlerFactory ioHandlerFactory() {
        return EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    }

    static Class<? extends ServerChannel> serverChannel() {
        return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    static Class<? extends SocketChannel> channel() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }
}
