package lab.common;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.catalina.connector.Connector;

import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.WebServer;
import org.springframework.core.env.Environment;

/**
 * Tomcat's per-connection and per-request buffer sizes, read back from the running connector, beside the sizes the
 * service's environment asks for (Tomcat's and Spring Boot's defaults where nothing is set). Only the Tomcat
 * variants load this class.
 */
final class TomcatReadback {

	private TomcatReadback() {
	}

	static boolean isTomcat(WebServer server) {
		return server.getClass().getName().equals("org.springframework.boot.tomcat.TomcatWebServer");
	}

	/** What the connector uses, by name. */
	static Map<String, Object> read(WebServer server) {
		Connector connector = ((TomcatWebServer) server).getTomcat().getConnector();
		Map<String, Object> sizes = new LinkedHashMap<>();
		sizes.put("socket read buffer", number(connector.getProperty("socket.appReadBufSize")));
		sizes.put("socket write buffer", number(connector.getProperty("socket.appWriteBufSize")));
		sizes.put("request header limit", number(connector.getProperty("maxHttpRequestHeaderSize")));
		sizes.put("response header buffer", number(connector.getProperty("maxHttpResponseHeaderSize")));
		sizes.put("trailer limit", number(connector.getProperty("maxTrailerSize")));
		sizes.put("response buffer (-1: Tomcat's 8 KB)", connector.getProtocolHandler().getDesiredBufferSize());
		return sizes;
	}

	/** Tomcat answers the socket properties as text and the others as numbers. */
	private static int number(Object value) {
		return Integer.parseInt(String.valueOf(value));
	}

	/** What the environment asks for, by the same names. */
	static Map<String, Object> expected(Environment environment) {
		int socket = Sizes.bytes(environment, "lab.tomcat.socket-buffer-size", 8192);
		Map<String, Object> sizes = new LinkedHashMap<>();
		sizes.put("socket read buffer", socket);
		sizes.put("socket write buffer", socket);
		sizes.put("request header limit", Sizes.bytes(environment, "server.max-http-request-header-size", 8192));
		sizes.put("response header buffer", Sizes.bytes(environment, "server.tomcat.max-http-response-header-size", 8192));
		sizes.put("trailer limit", Sizes.bytes(environment, "lab.tomcat.max-trailer-size", 8192));
		sizes.put("response buffer (-1: Tomcat's 8 KB)", Sizes.bytes(environment, "lab.tomcat.response-buffer-size", -1));
		return sizes;
	}

}
