package dev.cim.server.net;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The web port's HTTP side: the page and its files, from the server's jar ({@code web/} on the
 * classpath), and the gate of the WebSocket path. A file is named by one plain name ({@code /app.js});
 * anything else is 404, so no request reaches outside {@code web/}. Every response forbids what the
 * page does not need: scripts and styles from elsewhere or inline, framing, sniffing types, and
 * sending the address on. A WebSocket upgrade whose {@code Origin} is neither the page's own nor
 * one allowed is refused with 403 (a page on another site must not speak for a user logged in
 * here); one without an {@code Origin} is not a browser's, and passes.
 */
final class WebRequests extends SimpleChannelInboundHandler<FullHttpRequest> {

    static final String NAME = "web";
    /** Where the page's WebSocket connects. */
    static final String SOCKET_PATH = "/ws";

    private static final Pattern FILE = Pattern.compile("/[A-Za-z0-9][A-Za-z0-9_-]*\\.(html|js|css|svg|png|ico)");
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8", "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8", "svg", "image/svg+xml", "png", "image/png", "ico", "image/x-icon");
    /** The files read so far (the jar does not change under a running server). */
    private static final Map<String, byte[]> FILES = new ConcurrentHashMap<>();
    private static final byte[] MISSING = new byte[0];

    private final Set<String> allowedOrigins;

    /**
     * @param allowedOrigins origins besides the page's own that may open the WebSocket
     *                       ({@code https://chat.example.com})
     */
    WebRequests(Set<String> allowedOrigins) {
        super(FullHttpRequest.class, false);
        this.allowedOrigins = allowedOrigins;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        String path = new QueryStringDecoder(request.uri()).path();
        if (SOCKET_PATH.equals(path)) {
            String origin = request.headers().get(HttpHeaderNames.ORIGIN);
            if (origin != null && !origin.equals(ownOrigin(ctx, request)) && !allowedOrigins.contains(origin)) {
                request.release();
                respond(ctx, request, HttpResponseStatus.FORBIDDEN, "text/plain; charset=utf-8",
                        ("origin " + origin + " may not connect (expected: this page's own, or one of "
                                + "cim.server.web.allowed-origins)").getBytes(StandardCharsets.UTF_8));
                return;
            }
            ctx.fireChannelRead(request); // to the WebSocket handshake
            return;
        }
        try {
            if (request.method() != HttpMethod.GET && request.method() != HttpMethod.HEAD) {
                respond(ctx, request, HttpResponseStatus.METHOD_NOT_ALLOWED, "text/plain; charset=utf-8",
                        "only GET (expected: a page or a file of it)".getBytes(StandardCharsets.UTF_8));
                return;
            }
            String name = "/".equals(path) ? "/index.html" : path;
            byte[] file = FILE.matcher(name).matches() ? FILES.computeIfAbsent(name, WebRequests::read) : MISSING;
            if (file == MISSING) {
                respond(ctx, request, HttpResponseStatus.NOT_FOUND, "text/plain; charset=utf-8",
                        ("no " + path).getBytes(StandardCharsets.UTF_8));
                return;
            }
            respond(ctx, request, HttpResponseStatus.OK, TYPES.get(name.substring(name.lastIndexOf('.') + 1)), file);
        } finally {
            request.release();
        }
    }

    /** The origin the page was served from, as the request names it: its scheme and its Host. */
    private static String ownOrigin(ChannelHandlerContext ctx, FullHttpRequest request) {
        boolean tls = ctx.pipeline().get(io.netty.handler.ssl.SslHandler.class) != null;
        return (tls ? "https://" : "http://") + request.headers().get(HttpHeaderNames.HOST);
    }

    private static byte[] read(String name) {
        try (InputStream in = WebRequests.class.getClassLoader().getResourceAsStream("web" + name)) {
            return in == null ? MISSING : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void respond(ChannelHandlerContext ctx, FullHttpRequest request, HttpResponseStatus status,
            String type, byte[] body) {
        boolean head = request.method() == HttpMethod.HEAD;
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
        String host = request.headers().get(HttpHeaderNames.HOST, "");
        boolean tls = ctx.pipeline().get(io.netty.handler.ssl.SslHandler.class) != null;
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, type)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CACHE_CONTROL, "no-cache")
                .set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; "
                        + "img-src 'self'; connect-src 'self' " + (tls ? "wss://" : "ws://") + host
                        + "; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
                .set("X-Content-Type-Options", "nosniff")
                .set("Referrer-Policy", "no-referrer")
                .set("X-Frame-Options", "DENY");
        boolean keepAlive = HttpUtil.isKeepAlive(request) && status == HttpResponseStatus.OK;
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response);
        } else {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
