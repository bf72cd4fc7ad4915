package lab.analyse;

import java.nio.file.Path;

import lab.analyse.judge.Limit;
import lab.analyse.read.LevelFacts;
import lab.layout.Level;
import lab.layout.LevelDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a level travels in {@code level.json} and in {@code summary.json}'s rows: as two numbers, {@code users} and
 * {@code ratePerSecond}, the one that does not apply written as 0, and {@code cappedFrom} 0 when the level was
 * not capped (the files' format since the first run, which readers of summary.json rely on). In the code it is a
 * {@link Level} and an optional cap; this class is the one place that translates. The same for a row's declared
 * figures: a map in the code, a field each in summary.json.
 */
public final class LevelJson {

	/** Reads and writes the runner's results records: the runner's one mapper ({@link lab.json.Json}). */
	public static final JsonMapper json = lab.json.Json.MAPPER;

	private LevelJson() {
	}

	/** Writes a level's {@code level.json} into its directory. */
	public static void writeFacts(Path dir, LevelFacts facts) {
		json.writeValue(dir.resolve(LevelDir.FACTS).toFile(), flat(json.valueToTree(facts)));
	}

	/** Reads a level's {@code level.json} from its directory. */
	public static LevelFacts readFacts(Path dir) {
		return json.treeToValue(nested(json.readTree(dir.resolve(LevelDir.FACTS).toFile())), LevelFacts.class);
	}

	/**
	 * One row of {@code summary.json}'s {@code results}: the variant, the level as its two fields and the load they
	 * amount to, the repeats, every declared figure in declaration order (a count as a whole number), then the
	 * headroom, the verdict and why, the injectors' parts, the Gatling reports and the pinning sites.
	 */
	public static ObjectNode row(LevelResult result) {
		ObjectNode row = json.createObjectNode();
		row.put("variant", result.variant());
		row.put("users", result.level().usersField()).put("ratePerSecond", result.level().ratePerSecondField()).put("load", result.load());
		row.put("repeats", result.repeats());
		result.figures().forEach((figure, value) -> {
			if (figure.count() && Double.isFinite(value)) {
				row.put(figure.field(), value.longValue());
			}
			else {
				row.put(figure.field(), value.doubleValue());
			}
		});
		row.set("headroom", json.valueToTree(result.headroom()));
		row.put("verdict", result.verdict().name());
		row.put("limit", Limit.of(result));
		row.put("meetsTarget", result.meetsTarget());
		row.set("reasons", json.valueToTree(result.reasons()));
		row.set("evidence", json.valueToTree(result.evidence()));
		row.set("injectors", json.valueToTree(result.injectors()));
		row.set("gatlingReports", json.valueToTree(result.gatlingReports()));
		row.set("pinnedSites", json.valueToTree(result.pinnedSites()));
		if (!result.byRequest().isEmpty()) {
			// A service of the user's own with named requests: each one's figures in the window ({@link RequestFigures}).
			row.set("byRequest", json.valueToTree(result.byRequest()));
		}
		return row;
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

}
