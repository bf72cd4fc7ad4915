package lab.common;

import java.util.function.LongSupplier;

import org.apache.catalina.connector.Connector;
import org.apache.coyote.AbstractProtocol;

/** Tomcat settings Spring Boot has no property for; only the Tomcat variants load this class. */
final class TomcatSettings {

	private TomcatSettings() {
	}

	/** A connector or protocol handler property Tomcat must know: a Tomcat without it fails startup with one line. */
	static void set(Connector connector, String name, String value, String setting) {
		if (!connector.setProperty(name, value)) {
			throw new IllegalStateException("this Tomcat has no connector property " + name + ": remove " + setting + " from the tuning");
		}
	}

	/** The connector's open connections, as its endpoint counts them. */
	static LongSupplier connectionCount(Connector connector) {
		return () -> connector.getProtocolHandler() instanceof AbstractProtocol<?> protocol ? protocol.getConnectionCount() : 0;
	}

}
