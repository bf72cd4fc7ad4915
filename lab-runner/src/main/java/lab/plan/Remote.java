package lab.plan;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a run measures and loads from elsewhere: already running services ({@code --target}, or every variant of the
 * Compose stack with {@code --compose}), an already running downstream ({@code --downstream}) and the injector hosts
 * ({@code --injectors}; {@code local} starts an injector process on this machine, anything else is an SSH
 * destination such as {@code ubuntu@10.0.1.7}). Nothing remote is the default: the runner starts every process
 * itself and loads from one local injector.
 *
 * @param targets each variant measured elsewhere and its base URL, in the order given; empty when the runner starts
 * them
 * @param compose how the Compose stack was reached, or null when the targets are not Compose's
 */
public record Remote(Map<String, URI> targets, ServiceSource downstream, List<String> injectors, Compose compose) {

	public static final Remote NONE = new Remote(Map.of(), ServiceSource.STARTED_HERE, List.of(), null);

	public static final String LOCAL = "local";

	/** An SSH destination: [user@]host, no spaces or shell characters (it reaches a command line). */
	private static final Pattern DESTINATION = Pattern.compile("([A-Za-z0-9._-]+@)?[A-Za-z0-9.:_-]+");

	/** The variant names a {@code --target} of the form {@code name=URL,name=URL} gives; empty for a bare URL. */
	public static List<String> targetNames(String target) {
		if (target == null || !target.contains("=")) {
			return List.of();
		}
		List<String> names = new ArrayList<>();
		for (String pair : target.split(",")) {
			names.add(pair.substring(0, Math.max(0, pair.indexOf('='))).trim());
		}
		return names;
	}

	/**
	 * {@code target}: a bare base URL (the one variant of {@code variants}), or {@code name=URL} pairs separated by
	 * commas, one per variant; {@code compose}: every variant of {@code variants} reached in the Compose stack, with
	 * its downstream.
	 */
	public static Remote parse(String target, String downstream, List<String> injectors, Compose compose, List<String> variants) {
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
		if (compose != null) {
			if (target != null || downstream != null) {
				throw new PlanException("--compose reaches every variant and the downstream in the Compose stack itself: drop --target and --downstream");
			}
			Map<String, URI> targets = new LinkedHashMap<>();
			variants.forEach(variant -> targets.put(variant, compose.url(variant)));
			return new Remote(targets, ServiceSource.of(compose.url(Variant.DOWNSTREAM)), List.copyOf(hosts), compose);
		}
		return new Remote(targets(target, variants), ServiceSource.of(url("--downstream", downstream)), List.copyOf(hosts), null);
	}

	/** Without Compose: {@code parse(target, downstream, injectors, null, variants)}. */
	public static Remote parse(String target, String downstream, List<String> injectors, List<String> variants) {
		return parse(target, downstream, injectors, null, variants);
	}

	private static Map<String, URI> targets(String target, List<String> variants) {
		Map<String, URI> targets = new LinkedHashMap<>();
		if (target == null) {
			return targets;
		}
		if (!target.contains("=")) {
			URI url = url("--target", target);
			if (variants.size() != 1) {
				throw new PlanException("--target " + target + " is one running service: name which it is with --variants <one of "
						+ String.join(", ", Variant.names()) + ">, or pass --target name=URL,name=URL");
			}
			targets.put(variants.get(0), url);
			return targets;
		}
		for (String pair : target.split(",")) {
			int eq = pair.indexOf('=');
			String name = pair.substring(0, Math.max(0, eq)).trim();
			if (eq < 0 || !Variant.names().contains(name)) {
				throw new PlanException("--target: '" + pair + "' is not variant=URL with a variant of " + String.join(", ", Variant.names())
						+ ": pass e.g. --target app-webflux=http://10.0.1.5:8081");
			}
			targets.put(name, url("--target " + name, pair.substring(eq + 1).trim()));
		}
		for (String variant : variants) {
			if (!targets.containsKey(variant)) {
				throw new PlanException("--target names no URL for " + variant + ": add " + variant + "=URL, or leave it out of --variants");
			}
		}
		return targets;
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

	/** Whether the services measured run elsewhere: the runner starts none of them, pins none, samples them over HTTP. */
	public boolean targetsGiven() {
		return !this.targets.isEmpty();
	}

	/** Where a variant (its module's name) runs when it runs elsewhere. */
	public Optional<URI> target(String module) {
		return Optional.ofNullable(this.targets.get(module));
	}

	/** Where a variant measured elsewhere answers health and metrics: its own port in Compose, else its base URL. */
	public Optional<URI> management(String module) {
		return target(module).map(url -> (this.compose != null) ? this.compose.managementUrl(module) : url);
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
		if (this.compose != null) {
			text.append("Compose stack reached ").append(this.compose.describe()).append('\n');
		}
		this.targets.forEach((name, url) -> text.append("target ").append(name).append(" at ").append(url)
			.append(management(name).filter(m -> !m.equals(url)).map(m -> ", health and metrics at " + m).orElse(""))
			.append(" (already running: not started, not pinned; sampled over HTTP)\n"));
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
