package lab.common;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.util.ClassUtils;

/**
 * The downstream client's effective settings, read back from the client object the application built (not from the
 * properties meant to configure it), under {@code downstreamClient} in {@code /actuator/info}: implementation,
 * connect and read timeout, pool ceiling, buffer size. The tests compare them across variants; the runner records
 * them. The clients keep these settings in private fields, so they are read by reflection; a field that a new
 * version of a client renames shows as {@code "unreadable: ..."} and fails the tests rather than passing silently.
 */
class DownstreamClientReadback implements InfoContributor {

	private final ListableBeanFactory beans;

	DownstreamClientReadback(ListableBeanFactory beans) {
		this.beans = beans;
	}

	@Override
	public void contribute(Info.Builder builder) {
		Map<String, Object> settings = new LinkedHashMap<>();
		try {
			Object restClient = unique("org.springframework.web.client.RestClient");
			Object webClient = unique("org.springframework.web.reactive.function.client.WebClient");
			if (restClient != null) {
				blocking(field(restClient, "clientRequestFactory"), settings);
			}
			else if (webClient != null) {
				settings.put("client", "WebClient");
				Reactor.read(field(field(field(webClient, "exchangeFunction"), "connector"), "httpClient"), settings);
			}
			else {
				settings.put("client", "none");
			}
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			settings.put("unreadable", ex.toString());
		}
		if (ClassUtils.isPresent("io.netty.util.Version", getClass().getClassLoader())) {
			settings.put("netty", NettyFacts.read());
		}
		builder.withDetail("downstreamClient", settings);
	}

	/**
	 * What a Netty-based service's figures may depend on besides its own code (the WebFlux variants serve and call
	 * on Netty): Netty's and Reactor Netty's versions, the buffer allocator every channel takes by default (Netty
	 * 4.2 made the adaptive one the default; {@code -Dio.netty.allocator.type=pooled} brings back 4.1's) and the
	 * transport Reactor Netty uses (native epoll where available unless {@code reactor.netty.native=false}), and
	 * where the server accepts connections: on one of the worker event loops (Reactor Netty's default) or on a
	 * thread of its own ({@code -Dreactor.netty.ioSelectCount=1}, set by the {@code tuned} tuning: on Netty 4.2 a
	 * worker loop busy with its connections left a burst of new ones unaccepted for seconds, docs/webflux-tail.md).
	 */
	private static final class NettyFacts {

		static Map<String, Object> read() {
			Map<String, Object> facts = new LinkedHashMap<>();
			var netty = io.netty.util.Version.identify().get("netty-common");
			facts.put("version", (netty != null) ? netty.artifactVersion() : "unknown");
			facts.put("reactorNetty", implementationVersion("reactor.netty.ReactorNetty"));
			facts.put("allocator", io.netty.buffer.ByteBufAllocator.DEFAULT.getClass().getSimpleName());
			facts.put("transport", transport());
			facts.put("accept", accept());
			return facts;
		}

		/** Native epoll when Reactor Netty wants a native transport ({@code LoopResources.DEFAULT_NATIVE}) and has it. */
		private static String transport() {
			try {
				Class<?> epoll = Class.forName("io.netty.channel.epoll.Epoll");
				if (reactor.netty.resources.LoopResources.DEFAULT_NATIVE && (boolean) epoll.getMethod("isAvailable").invoke(null)) {
					return "epoll";
				}
			}
			catch (ReflectiveOperationException | LinkageError ex) {
				// no native transport on the classpath
			}
			return "nio";
		}

		/** As Reactor Netty read {@code reactor.netty.ioSelectCount} for its default loop resources. */
		private static String accept() {
			try {
				return (reactor.netty.resources.LoopResources.DEFAULT_IO_SELECT_COUNT > 0) ? "its own thread" : "a worker loop";
			}
			catch (LinkageError ex) {
				return "absent";
			}
		}

		private static String implementationVersion(String className) {
			try {
				String version = Class.forName(className).getPackage().getImplementationVersion();
				return (version != null) ? version : "unknown";
			}
			catch (ClassNotFoundException ex) {
				return "absent";
			}
		}

	}

	/** The application's one bean of a type that may not be on its classpath, or null. */
	private Object unique(String typeName) {
		if (!ClassUtils.isPresent(typeName, getClass().getClassLoader())) {
			return null;
		}
		Map<String, ?> found = this.beans.getBeansOfType(ClassUtils.resolveClassName(typeName, getClass().getClassLoader()));
		return (found.size() == 1) ? found.values().iterator().next() : null;
	}

	private static void blocking(Object factory, Map<String, Object> settings) throws ReflectiveOperationException {
		settings.put("client", "RestClient");
		settings.put("implementation", factory.getClass().getSimpleName());
		switch (factory) {
			case org.springframework.http.client.HttpComponentsClientHttpRequestFactory apache -> Apache.read(apache, settings);
			case org.springframework.http.client.JdkClientHttpRequestFactory jdk -> {
				var client = (java.net.http.HttpClient) field(jdk, "httpClient");
				settings.put("connectTimeout", client.connectTimeout().map(Duration::toString).orElse("none"));
				settings.put("readTimeout", String.valueOf(field(jdk, "readTimeout")));
				settings.put("version", client.version().toString());
			}
			case org.springframework.http.client.SimpleClientHttpRequestFactory simple -> {
				settings.put("connectTimeout", duration(((Number) field(simple, "connectTimeout")).longValue()));
				settings.put("readTimeout", duration(((Number) field(simple, "readTimeout")).longValue()));
			}
			default -> settings.put("unreadable", "no reader for " + factory.getClass().getName());
		}
	}

	/** Apache HttpClient 5, in a class of its own: loaded only where the client is on the classpath. */
	private static final class Apache {

		static void read(org.springframework.http.client.HttpComponentsClientHttpRequestFactory apache,
				Map<String, Object> settings) throws ReflectiveOperationException {
				var manager = (org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager) field(
						apache.getHttpClient(), "connManager");
				@SuppressWarnings("unchecked")
				var connection = ((org.apache.hc.core5.function.Resolver<Object, org.apache.hc.client5.http.config.ConnectionConfig>) field(
						manager, "connectionConfigResolver"))
					.resolve(null);
				settings.put("connectTimeout", duration(connection.getConnectTimeout().toMilliseconds()));
				settings.put("readTimeout", duration(connection.getSocketTimeout().toMilliseconds()));
				settings.put("maxConnections", manager.getMaxTotal());
				settings.put("maxConnectionsPerRoute", manager.getDefaultMaxPerRoute());
				var h1 = (org.apache.hc.core5.http.config.Http1Config) field(field(manager, "connFactory"), "h1Config");
				settings.put("bufferSize", h1.getBufferSize());
				// The request stages every call passes through, outermost first (retry, redirect, compression, ...).
				List<String> stages = new ArrayList<>();
				for (Object stage = field(apache.getHttpClient(), "execChain"); stage != null; stage = field(stage, "next")) {
					stages.add(field(stage, "handler").getClass().getSimpleName());
				}
				settings.put("stages", stages);
		}

	}

	/** Reactor Netty, in a class of its own: loaded only where the client is on the classpath. */
	private static final class Reactor {

		static void read(Object client, Map<String, Object> settings) {
			var config = ((reactor.netty.http.client.HttpClient) client).configuration();
			settings.put("implementation", "ReactorNetty");
			Object connect = config.options().get(io.netty.channel.ChannelOption.CONNECT_TIMEOUT_MILLIS);
			settings.put("connectTimeout", (connect == null) ? "none" : duration(((Number) connect).longValue()));
			settings.put("readTimeout", String.valueOf(config.responseTimeout()));
			settings.put("maxConnections", config.connectionProvider().maxConnections());
		}

	}

	private static String duration(long millis) {
		return Duration.ofMillis(millis).toString();
	}

	static Object field(Object target, String name) throws ReflectiveOperationException {
		for (Class<?> type = target.getClass(); type != null; type = type.getSuperclass()) {
			try {
				Field field = type.getDeclaredField(name);
				field.setAccessible(true);
				return field.get(target);
			}
			catch (NoSuchFieldException ex) {
				// look in the superclass
			}
		}
		throw new NoSuchFieldException(name + " in " + target.getClass().getName());
	}

}
