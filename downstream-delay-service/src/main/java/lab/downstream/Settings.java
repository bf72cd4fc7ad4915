package lab.downstream;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The downstream's few settings, as {@code --key=value} arguments (what the runner, the tests and Terraform pass) or
 * environment variables in Spring's spelling ({@code SERVER_PORT}: what Compose sets), so it starts like every other
 * service of the lab.
 *
 * @param port the HTTP port; 0 picks a free one
 * @param managementPort the port of {@code /actuator/health} and {@code /actuator/prometheus}; absent: the same port
 * @param portFile where to write the chosen port (and, beside it, the management port), as Spring Boot does
 * @param hangEvery test-only fault: every Nth request is never answered (0 = off)
 * @param eventLoops event-loop threads (1: the timers and the sockets of every connection on one thread)
 */
record Settings(int port, Integer managementPort, Path portFile, long hangEvery, int eventLoops) {

	static final Map<String, String> KNOWN = new LinkedHashMap<>();

	static {
		KNOWN.put("server.port", "7000");
		KNOWN.put("management.server.port", null);
		KNOWN.put("lab.port-file", null);
		KNOWN.put("lab.fault.hang-every", "0");
		KNOWN.put("lab.event-loops", "1");
	}

	/** Arguments win over the environment; an unknown or malformed setting is an {@link IllegalArgumentException}. */
	static Settings parse(String[] args, Map<String, String> env) {
		Map<String, String> values = new LinkedHashMap<>();
		for (String key : KNOWN.keySet()) {
			String fromEnv = env.get(key.toUpperCase().replace('.', '_').replace("-", ""));
			values.put(key, (fromEnv != null) ? fromEnv : KNOWN.get(key));
		}
		for (String arg : args) {
			int eq = arg.indexOf('=');
			if (!arg.startsWith("--") || eq < 0 || !KNOWN.containsKey(arg.substring(2, eq))) {
				throw new IllegalArgumentException("unknown argument '" + arg + "'; the downstream takes --" + String.join("=..., --", KNOWN.keySet()) + "=...");
			}
			values.put(arg.substring(2, eq), arg.substring(eq + 1));
		}
		String management = values.get("management.server.port");
		String portFile = values.get("lab.port-file");
		return new Settings(integer(values, "server.port", 0, 65535), (management == null) ? null : integer(values, "management.server.port", 0, 65535),
				(portFile == null || portFile.isBlank()) ? null : Path.of(portFile), integer(values, "lab.fault.hang-every", 0, Integer.MAX_VALUE),
				integer(values, "lab.event-loops", 1, 64));
	}

	private static int integer(Map<String, String> values, String key, int min, int max) {
		String raw = values.get(key);
		try {
			int value = Integer.parseInt(raw.trim());
			if (value >= min && value <= max) {
				return value;
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		throw new IllegalArgumentException(key + " must be an integer from " + min + " to " + max + ", got '" + raw + "'");
	}

	/** Spring Boot's name for the management port's file: {@code port} → {@code port-management}. */
	Path managementPortFile() {
		String name = this.portFile.getFileName().toString();
		int dot = name.lastIndexOf('.');
		String managed = (dot > 0) ? name.substring(0, dot) + "-management" + name.substring(dot) : name + "-management";
		return this.portFile.resolveSibling(managed);
	}

}
