package lab.downstream;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.ResourceLeakDetector;

import lab.common.ProcessMetrics;

/**
 * The downstream every proxy calls: {@code GET /address/{delayMs}} answered after a timer on the event loop of the
 * request's own connection. A bare Netty server with one event loop: no framework dispatch, no reactive operators,
 * no per-request observation besides its lateness histogram, because it shares a core with the injector and must
 * cost almost nothing per request (the Spring WebFlux version cost 0.14 ms of CPU per request here).
 */
public final class DownstreamServer implements AutoCloseable {

	static final String NAME = "downstream-delay-service";

	private final EventLoopGroup group;

	private final ExecutorService scrapes;

	private final Channel app;

	private final Channel management;

	private DownstreamServer(Settings settings) throws InterruptedException {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		new ClassLoaderMetrics().bindTo(registry);
		new JvmMemoryMetrics().bindTo(registry);
		new JvmGcMetrics().bindTo(registry);
		new JvmThreadMetrics().bindTo(registry);
		new ProcessorMetrics().bindTo(registry);
		new UptimeMetrics().bindTo(registry);
		new FileDescriptorMetrics().bindTo(registry);
		new ProcessMetrics().bindTo(registry);
		// How late the answer is beyond the requested delay, handler entry to the timer: the downstream's own view of
		// whether it keeps up (the runner's end-to-end probe is what the verdict judges).
		Timer overhead = Timer.builder("downstream.overhead")
			.description("Time beyond the requested delay until the answer is written")
			.publishPercentileHistogram()
			.maximumExpectedValue(Duration.ofSeconds(10))
			.register(registry);
		InFlight inFlight = new InFlight(registry);
		// A scrape renders tens of KB of text: on a thread of its own, never on the event loop the timers run on.
		this.scrapes = Executors.newSingleThreadExecutor(runnable -> {
			Thread thread = new Thread(runnable, "prometheus-scrape");
			thread.setDaemon(true);
			return thread;
		});
		boolean epoll = Epoll.isAvailable();
		IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
		Class<? extends ServerChannel> channel = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
		this.group = new MultiThreadIoEventLoopGroup(settings.eventLoops(), io);
		Routes routes = new Routes(inFlight, overhead, registry, this.scrapes, settings.hangEvery());
		boolean ownManagementPort = settings.managementPort() != null;
		this.app = bind(channel, settings.port(), routes, true, !ownManagementPort);
		this.management = ownManagementPort ? bind(channel, settings.managementPort(), routes, false, true) : null;
		System.out.printf("%s: listening on port %d%s, %d event loop(s), %s%n", NAME, port(this.app),
				ownManagementPort ? " (management on " + port(this.management) + ")" : "", settings.eventLoops(), epoll ? "epoll" : "NIO");
	}

	private Channel bind(Class<? extends ServerChannel> channel, int port, Routes routes, boolean serveApp, boolean serveManagement)
			throws InterruptedException {
		return new ServerBootstrap().group(this.group)
			.channel(channel)
			// 10k users connect within seconds: a deep accept queue (the kernel caps it at net.core.somaxconn).
			.option(ChannelOption.SO_BACKLOG, 65_535)
			.childOption(ChannelOption.TCP_NODELAY, true)
			.childHandler(new ChannelInitializer<SocketChannel>() {
				@Override
				protected void initChannel(SocketChannel ch) {
					ch.pipeline().addLast(new HttpServerCodec(), new Exchange(routes, serveApp, serveManagement));
				}
			})
			.bind(new InetSocketAddress(port))
			.sync()
			.channel();
	}

	static DownstreamServer start(Settings settings) throws InterruptedException, IOException {
		DownstreamServer server = new DownstreamServer(settings);
		if (settings.portFile() != null) {
			// The management port first: a reader that sees the main port file finds both.
			if (server.management != null) {
				writeAtomically(settings.managementPortFile(), port(server.management));
			}
			writeAtomically(settings.portFile(), port(server.app));
		}
		return server;
	}

	int port() {
		return port(this.app);
	}

	int managementPort() {
		return port((this.management != null) ? this.management : this.app);
	}

	private static int port(Channel channel) {
		return ((InetSocketAddress) channel.localAddress()).getPort();
	}

	private static void writeAtomically(Path file, int port) throws IOException {
		Path parent = file.toAbsolutePath().getParent();
		Files.createDirectories(parent);
		Path temp = Files.createTempFile(parent, file.getFileName().toString(), ".tmp");
		Files.writeString(temp, Integer.toString(port));
		Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
	}

	@Override
	public void close() {
		this.app.close().syncUninterruptibly();
		if (this.management != null) {
			this.management.close().syncUninterruptibly();
		}
		this.group.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
		this.scrapes.shutdownNow();
	}

	public static void main(String[] args) throws Exception {
		Settings settings;
		try {
			settings = Settings.parse(args, System.getenv());
		}
		catch (IllegalArgumentException ex) {
			System.err.println(NAME + ": " + ex.getMessage());
			System.exit(2);
			return;
		}
		// Netty samples 1 buffer in 128 for leaks by default; the downstream's buffers are few and short-lived.
		if (System.getProperty("io.netty.leakDetection.level") == null) {
			ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
		}
		DownstreamServer server = start(settings);
		Runtime.getRuntime().addShutdownHook(new Thread(server::close, "shutdown"));
		server.app.closeFuture().sync();
	}

}
