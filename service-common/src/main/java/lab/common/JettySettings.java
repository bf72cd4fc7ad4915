package lab.common;

import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Connector;
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

}
