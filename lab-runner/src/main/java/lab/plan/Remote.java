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
 * @param managements where a target's health and metrics answer when not on its base URL ({@code --management}): a
 * port of their own, so a scrape never waits behind requests for a thread; empty for none
 */
public record Remote(Map<String, URI> targets, ServiceSource downstream, List<String> injectors, Compose compose,
		Map<String, URI> managements) {

	public static final Remote NONE = new Remote(Map.of(), ServiceSource.STARTED_HERE, List.of(), null, Map.of());

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
			return new Remote(targets, ServiceSource.of(compose.url(Variant.DOWNSTREAM)), List.copyOf(hosts), compose, Map.of());
		}
		return new Remote(targets(target, variants), ServiceSource.of(url("--downstream", downstream)), List.copyOf(hosts), null, Map.of());
	}

	/** Without Compose: {@code parse(target, downstream, injectors, null, variants)}. */
	public static Remote parse(String target, String downstream, List<String> injectors, List<String> variants) {
		return parse(target, downstream, injectors, null, variants);
	}

	/**
	 * The same with {@code --management}: where each target's health and metrics answer, in {@code --target}'s form (a
	 * bare URL for the one variant, else {@code name=URL} pairs); a target it does not name answers them on its base
	 * URL. Null: every target on its base URL.
	 */
	public Remote withManagement(String management) {
		if (management == null) {
			return this;
		}
		if (this.targets.isEmpty() || this.compose != null) {
			throw new PlanException("--management names where a --target answers health and metrics: pass it with --target "
					+ "(Compose's management ports are known: drop it)");
		}
		Map<String, URI> given = parsePairs("--management", management, List.copyOf(this.targets.keySet()), false);
		for (String name : given.keySet()) {
			if (!this.targets.containsKey(name)) {
				throw new PlanException("--management names " + name + ", which no --target measures: measured are "
						+ String.join(", ", this.targets.keySet()));
			}
		}
		return new Remote(this.targets, this.downstream, this.injectors, this.compose, java.util.Collections.unmodifiableMap(given));
	}

	private static Map<String, URI> targets(String target, List<String> variants) {
		return (target == null) ? new LinkedHashMap<>() : parsePairs("--target", target, variants, true);
	}

	/** {@code option}'s value: a bare URL for the one variant of {@code variants}, or name=URL pairs; every variant named when {@code all}. */
	private static Map<String, URI> parsePairs(String option, String value, List<String> variants, boolean all) {
		Map<String, URI> urls = new LinkedHashMap<>();
		if (!value.contains("=")) {
			URI url = url(option, value);
			if (variants.size() != 1) {
				throw new PlanException(option + " " + value + " is one running service: name which it is with --variants <one of "
						+ String.join(", ", Variant.names()) + ">, or pass " + option + " name=URL,name=URL");
			}
			urls.put(variants.get(0), url);
			return urls;
		}
		for (String pair : value.split(",")) {
			int eq = pair.indexOf('=');
			String name = pair.substring(0, Math.max(0, eq)).trim();
			if (eq < 0 || !Variant.names().contains(name)) {
				throw new PlanException(option + ": '" + pair + "' is not variant=URL with a variant of " + String.join(", ", Variant.names())
						+ ": pass e.g. " + option + " app-webflux=http://10.0.1.5:8081");
			}
			urls.put(name, url(option + " " + name, pair.substring(eq + 1).trim()));
		}
		for (String variant : all ? variants : List.<String>of()) {
			if (!urls.containsKey(variant)) {
				throw new PlanException(option + " names no URL for " + variant + ": add " + variant + "=URL, or leave it out of --variants");
			}
		}
		return urls;
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

	/**
	 * Where a variant measured elsewhere answers health and metrics: its own port in Compose, the URL
	 * {@code --management} gave, else its base URL.
	 */
	public Optional<URI> management(String module) {
		return target(module).map(url -> (this.compose != null) ? this.compose.managementUrl(module) : this.managements.getOrDefault(module, url));
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
