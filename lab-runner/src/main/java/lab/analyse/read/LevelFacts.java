package lab.analyse.read;

import java.nio.file.Path;
import java.util.List;

import lab.json.Json;
import lab.layout.Level;
import lab.layout.LevelDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the runner itself observed about one level, written to {@code level.json} beside the injector's files:
 * the facts a verdict needs that no metric carries. Fields added after the first results were written are boxed:
 * an older {@code level.json} without them reads as null.
 *
 * @param variant the service under test
 * @param level the users run (after any descriptor cap) or the arrival rate ({@link #read}: the file's two fields)
 * @param cappedFrom users asked for when the descriptor limit forced fewer, else null
 * @param delayMs the downstream's delay
 * @param repeat which repeat of the level this is, from 1
 * @param warmedUp whether the service had its warm-up before its first level
 * @param serviceCpus how many CPUs the service had (its CPU % is of one core)
 * @param injectorCpus how many CPUs the injector and the downstream shared
 * @param serviceAlive whether the service still ran after the level
 * @param exitCode the service's exit code when it died, else null
 * @param outOfMemory whether its log reported an OutOfMemoryError
 * @param injectorExitCode Gatling's exit code (-1 when it had to be stopped)
 * @param evidence files that show why the level failed (log, heap histogram), relative to the results directory
 * @param problems what the runner saw go wrong (contract check, start-up), in words: the level never ran
 * @param notRun whose fault it was that a level never ran ({@link Blame#field}: the service's, the harness's, or the
 * runner ended during it), null when it ran; the analysis makes it the level's verdict ({@link Blame#verdict}). Files
 * written before the runner recorded facts only hold the verdict itself (FAILED, INVALID, INTERRUPTED), read the same
 * way; an older file with problems and no {@code notRun} was the service's fault
 * @param requestTimeoutMs the injector's request timeout
 * @param downstreamWatched whether a downstream was watched during the level (not with --target alone)
 * @param downstreamAlive whether the downstream still ran after the level (null: not started here)
 * @param downstreamExitCode its exit code when it died
 * @param interruptedAtMs when the person interrupted the run during this level (epoch ms), else null
 * @param warmupDir the warm-up this level was the first after, relative to the results directory, else null
 * @param coldStart whether the level loaded a cold service at once on purpose (a start scenario's level): no warm-up
 * is then what it measures, not a fault of the harness; null (older files) and false alike mean not
 */
public record LevelFacts(String variant, Level level, Integer cappedFrom, long delayMs, int repeat,
		boolean warmedUp, int serviceCpus, int injectorCpus, boolean serviceAlive, Integer exitCode, boolean outOfMemory,
		int injectorExitCode, List<String> evidence, List<String> problems, String notRun, Long requestTimeoutMs,
		Boolean downstreamWatched, Boolean downstreamAlive, Integer downstreamExitCode, Long interruptedAtMs,
		String warmupDir, Boolean coldStart) {

	public LevelFacts {
		evidence = (evidence != null) ? List.copyOf(evidence) : List.of();
		problems = (problems != null) ? List.copyOf(problems) : List.of();
	}

	/** The users of a closed level, the rate of an open one. */
	public int load() {
		return this.level.amount();
	}

	/**
	 * The most requests a second the level can produce: an open level its rate; by Little's law, N closed users on a
	 * D-second downstream N / D.
	 */
	public double ceilingRps() {
		return switch (this.level) {
			case Level.Open open -> open.ratePerSecond();
			case Level.Closed closed -> (this.delayMs == 0) ? Double.NaN : closed.users() * 1000.0 / this.delayMs;
		};
	}

	/** The request timeout in microseconds (30 s when an older file did not record it). */
	public long requestTimeoutMicros() {
		return 1_000 * ((this.requestTimeoutMs != null) ? this.requestTimeoutMs : 30_000L);
	}

	public LevelFacts withEvidence(List<String> more) {
		return new LevelFacts(this.variant, this.level, this.cappedFrom, this.delayMs, this.repeat,
				this.warmedUp, this.serviceCpus, this.injectorCpus, this.serviceAlive, this.exitCode, this.outOfMemory,
				this.injectorExitCode, more, this.problems, this.notRun, this.requestTimeoutMs, this.downstreamWatched,
				this.downstreamAlive, this.downstreamExitCode, this.interruptedAtMs, this.warmupDir, this.coldStart);
	}

	/** Whether this level was a cold start on purpose ({@link #coldStart}). */
	public boolean startedCold() {
		return Boolean.TRUE.equals(this.coldStart);
	}

	/** The runner's one mapper. */
	private static final JsonMapper json = Json.MAPPER;

	/** Writes a level's {@code level.json} into its directory. */
	public static void write(Path dir, LevelFacts facts) {
		json.writeValue(dir.resolve(LevelDir.FACTS).toFile(), flat(json.valueToTree(facts)));
	}

	/** Reads a level's {@code level.json} from its directory. */
	public static LevelFacts read(Path dir) {
		return json.treeToValue(nested(json.readTree(dir.resolve(LevelDir.FACTS).toFile())), LevelFacts.class);
	}

	/** The facts' tree with {@code level} replaced, in its place, by the files' fields. */
	static ObjectNode flat(JsonNode node) {
		ObjectNode flat = json.createObjectNode();
		node.properties().forEach(field -> {
			switch (field.getKey()) {
				case "level" -> {
					Level level = json.treeToValue(field.getValue(), Level.class);
					flat.put("users", level.usersField()).put("ratePerSecond", level.ratePerSecondField());
				}
				case "cappedFrom" -> flat.put("cappedFrom", field.getValue().isNumber() ? field.getValue().asInt() : 0);
				default -> flat.set(field.getKey(), field.getValue());
			}
		});
		return flat;
	}

	/** The files' fields back into a {@code level} (and no {@code cappedFrom} when it was 0). */
	static ObjectNode nested(JsonNode node) {
		Level level = Level.fromFields(node.path("users").asInt(0), node.path("ratePerSecond").asInt(0));
		ObjectNode nested = json.createObjectNode();
		node.properties().forEach(field -> {
			switch (field.getKey()) {
				case "users" -> nested.set("level", json.valueToTree(level));
				case "ratePerSecond", "load" -> {
				}
				case "cappedFrom" -> {
					if (field.getValue().asInt(0) > 0) {
						nested.set("cappedFrom", field.getValue());
					}
				}
				default -> nested.set(field.getKey(), field.getValue());
			}
		});
		if (!nested.has("level")) {
			nested.set("level", json.valueToTree(level));
		}
		return nested;
	}

	/** Whose fault it was that a level never ran: a fact the runner records, a verdict only the analysis gives. */
	public enum Blame {

		/** The service: it failed to start or its contract check, or broke at an earlier level. */
		SERVICE("service", "FAILED"),
		/** The harness: the downstream died or did not answer, a tuning was not applied, the service died with it. */
		HARNESS("harness", "INVALID"),
		/** The runner ended during the level (killed, or the person stopped it) before it was finished. */
		RUNNER_ENDED("runner ended", "INTERRUPTED");

		private final String field;

		/** The verdict's name files older than the blame recorded in its place (the analysis maps a blame to it). */
		private final String olderVerdict;

		Blame(String field, String olderVerdict) {
			this.field = field;
			this.olderVerdict = olderVerdict;
		}

		/** Its value in level.json's {@code notRun}. */
		public String field() {
			return this.field;
		}

		/** The blame recorded in {@code notRun} (a verdict in files older than the blame): the service's when none. */
		public static Blame read(String notRun) {
			if (notRun == null) {
				return SERVICE;
			}
			for (Blame blame : values()) {
				if (blame.field.equals(notRun) || blame.olderVerdict.equals(notRun)) {
					return blame;
				}
			}
			throw new IllegalArgumentException("level.json: notRun \"" + notRun + "\" is none of service, harness, runner ended");
		}

	}

}
