package lab.analyse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import lab.analyse.judge.Thresholds;
import lab.json.Json;
import lab.layout.LatencyTarget;
import lab.layout.RunDir;
import lab.plan.Scenario;
import lab.plan.Work;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code manifest.json}: everything needed to know what was measured and to re-render the report: host, JDK,
 * versions, every JVM flag, profile and pinning, the scenario as run, the git commit, the thresholds.
 */
public record Manifest(String startedAt, Map<String, Object> host, Map<String, String> java, Map<String, String> versions,
		String gitCommit, String profile, Map<String, String> cpus, Map<String, Object> remote, Map<String, List<String>> jvmFlags, Scenario scenario,
		List<Map<String, Object>> levels, Thresholds thresholds, String pinnedThreshold, Map<String, AppliedTuning> tunings,
		List<String> commandLine, Map<String, Map<String, String>> jdks, Map<String, Work> works) {

	/** The latency target the run declared (its scenario's), else the lab's default (a run older than targets too). */
	public LatencyTarget target() {
		return (this.scenario != null) ? this.scenario.target() : LatencyTarget.DEFAULT;
	}

	/** Another lab run this one measured beside (--allow-concurrent), in words; null when it had the host alone. */
	public String sharedWith() {
		return (this.host != null && this.host.get("sharedWith") != null) ? String.valueOf(this.host.get("sharedWith")) : null;
	}

	/** Reads manifests back leniently: a run older than a field has none, a field since dropped is ignored. */
	private static final JsonMapper reader = Json.MAPPER;

	/**
	 * A tuning as it was applied.
	 *
	 * @param description the tuning's one line
	 * @param variants per variant label, the JVM flags and Spring properties it added
	 */
	public record AppliedTuning(String description, Map<String, Applied> variants) {
	}

	/** What a tuning added to one variant. */
	public record Applied(List<String> jvm, Map<String, String> properties) {
	}

	/**
	 * A run's manifest read back, typed as it was written; null where a run older than a field did not record it. Its
	 * thresholds are those the run recorded, or the current defaults for a run that recorded none or only some
	 * ({@link Thresholds#recordedIn}). A directory without a manifest reads as an empty one.
	 */
	public static Manifest read(Path results) {
		return parse(readTree(results));
	}

	/** A manifest already read as a tree ({@link #readTree}), typed. */
	public static Manifest parse(JsonNode raw) {
		// The thresholds are read field by field (a run older than a threshold did not record it), not as one record.
		JsonNode withoutThresholds = raw.deepCopy();
		if (withoutThresholds instanceof tools.jackson.databind.node.ObjectNode object) {
			object.remove("thresholds");
		}
		// A manifest from a newer or older lab may hold fields this one does not know: read leniently.
		Manifest typed = reader.readerFor(Manifest.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(withoutThresholds);
		return new Manifest(typed.startedAt, typed.host, typed.java, typed.versions, typed.gitCommit, typed.profile, typed.cpus,
				typed.remote, typed.jvmFlags, typed.scenario, typed.levels, Thresholds.recordedIn(raw), typed.pinnedThreshold,
				typed.tunings, typed.commandLine, typed.jdks, typed.works);
	}

	/** The manifest exactly as written (summary.json embeds it unchanged); an empty object when there is none. */
	public static JsonNode readTree(Path results) {
		Path file = results.resolve(RunDir.MANIFEST);
		return Files.isRegularFile(file) ? reader.readTree(file.toFile()) : reader.createObjectNode();
	}

	/** The scenario's name, or {@code fallback} for a directory without a manifest. */
	public String scenarioName(String fallback) {
		return (this.scenario != null && this.scenario.name() != null) ? this.scenario.name() : fallback;
	}

	/** The work per request of a row, by its label: as recorded, else pure waiting (a run older than the work). */
	public Work work(String label) {
		return (this.works != null && this.works.get(label) != null) ? this.works.get(label) : Work.NONE;
	}

}
