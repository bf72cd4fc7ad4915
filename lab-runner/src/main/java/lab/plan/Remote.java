package lab.plan;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a run measures and loads from elsewhere: an already running service ({@code --target}), an already
 * running downstream ({@code --downstream}) and the injector hosts ({@code --injectors}; {@code local} starts an
 * injector process on this machine, anything else is an SSH destination such as {@code ubuntu@10.0.1.7}).
 * Nothing remote is the default: the runner starts every process itself and loads from one local injector.
 */
public record Remote(ServiceSource target, ServiceSource downstream, List<String> injectors) {

	public static final Remote NONE = new Remote(ServiceSource.STARTED_HERE, ServiceSource.STARTED_HERE, List.of());

	public static final String LOCAL = "local";

	/** An SSH destination: [user@]host, no spaces or shell characters (it reaches a command line). */
	private static final Pattern DESTINATION = Pattern.compile("([A-Za-z0-9._-]+@)?[A-Za-z0-9.:_-]+");

	public static Remote parse(String target, String downstream, List<String> injectors) {
		List<String> hosts = new ArrayList<>();
		if (injectors != null) {
			for (String host : injectors) {
				String trimmed = host.trim();
				if (!DESTINATION.matcher(trimmed).matches()) {
					throw new PlanException("--injectors: '" + host + "' is neither 'local' nor an SSH destination "
							+ "([user@]host): pass e.g. --injectors ubuntu@10.0.1.7,ubuntu@10.0.1.8");
				}
				hosts.add(trimmed);
			}
		}
		return new Remote(ServiceSource.of(url("--target", target)), ServiceSource.of(url("--downstream", downstream)), List.copyOf(hosts));
	}

	private static URI url(String option, String value) {
		if (value == null) {
			return null;
		}
		try {
			URI uri = new URI(value.endsWith("/") ? value.substring(0, value.length() - 1) : value);
			if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null
					&& (uri.getPath() == null || uri.getPath().isEmpty())) {
				return uri;
			}
		}
		catch (java.net.URISyntaxException ex) {
			// reported below
		}
		throw new PlanException(option + " '" + value + "' is not a base URL: pass e.g. " + option + " http://10.0.1.5:8080");
	}

	/** Whether the injectors run elsewhere than the default single local process. */
	public boolean injectorsGiven() {
		return !this.injectors.isEmpty();
	}

	/** Whether every injector is a process on this machine (their CPU is sampled here and shares its cores). */
	public boolean injectorsLocal() {
		return this.injectors.stream().allMatch(LOCAL::equals);
	}

	public String describe() {
		StringBuilder text = new StringBuilder();
		if (this.target instanceof ServiceSource.ReachedAt(URI url)) {
			text.append("target ").append(url).append(" (already running: not started, not pinned; sampled over HTTP)\n");
		}
		if (this.downstream instanceof ServiceSource.ReachedAt(URI url)) {
			text.append("downstream ").append(url).append(" (already running: not started; sampled over HTTP)\n");
		}
		if (injectorsGiven()) {
			text.append("injectors ").append(String.join(", ", this.injectors))
				.append(" (the load split between them; latencies merged from their histograms)\n");
		}
		return text.toString();
	}

}
