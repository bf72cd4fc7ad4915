package lab.common;

import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** Jetty settings Spring Boot has no property for; only the Jetty variant loads this class. */
final class JettySettings {

	private JettySettings() {
	}

	/** Counts every connection of every connector as it opens and closes. */
	static void countConnections(Server server, ServerConnections open) {
		Connection.Listener listener = new Connection.Listener() {

			@Override
			public void onOpened(Connection connection) {
				open.opened();
			}

			@Override
			public void onClosed(Connection connection) {
				open.closed();
			}

		};
		for (Connector connector : server.getConnectors()) {
			connector.addBean(listener);
		}
	}

	/** The backlog of every network connector: connections the kernel holds until Jetty accepts them. */
	static void acceptQueueSize(Server server, int size) {
		for (Connector connector : server.getConnectors()) {
			if (connector instanceof ServerConnector network) {
				network.setAcceptQueueSize(size);
			}
		}
	}

	/**
	 * The size of every connection's cache of request header fields ({@code HttpConfiguration.headerCacheSize},
	 * 1,024 by default): a trie Jetty builds for each connection on its first request, 98 KB of {@code char[]} and a
	 * 4 KB node array at the default size; 0 builds none, and header fields are then parsed anew on each request.
	 */
	static void headerCacheSize(Server server, int size) {
		for (Connector connector : server.getConnectors()) {
			HttpConnectionFactory http = connector.getConnectionFactory(HttpConnectionFactory.class);
			if (http != null) {
				http.getHttpConfiguration().setHeaderCacheSize(size);
			}
		}
	}

}
