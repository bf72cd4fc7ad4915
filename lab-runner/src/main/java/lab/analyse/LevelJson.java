package lab.analyse;

import java.nio.file.Path;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import lab.layout.Level;
import lab.layout.LevelDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a level travels in {@code level.json} and in {@code summary.json}'s rows: as two numbers, {@code users} and
 * {@code ratePerSecond}, the one that does not apply written as 0, and {@code cappedFrom} 0 when the level was
 * not capped (the files' format since the first run, which readers of summary.json rely on). In the code it is a
 * {@link Level} and an optional cap; this class is the one place that translates. The same for a row's declared
 * metrics: a map in the code, a field each in summary.json.
 */
public final class LevelJson {

	/** Reads and writes the runner's results records; knows a {@link Level} by its field. */
	public static final JsonMapper json = JsonMapper.builder()
		.enable(SerializationFeature.INDENT_OUTPUT)
		.addMixIn(Level.class, LevelFormat.class)
		.build();

	@JsonTypeInfo(use = JsonTypeInfo.Id.DEDUCTION)
	@JsonSubTypes({ @JsonSubTypes.Type(Level.Closed.class), @JsonSubTypes.Type(Level.Open.class) })
	private interface LevelFormat {
	}

	private LevelJson() {
	}

	/** Writes a level's {@code level.json} into its directory. */
	public static void writeFacts(Path dir, LevelFacts facts) {
		json.writeValue(dir.resolve(LevelDir.FACTS).toFile(), flat(json.valueToTree(facts), false));
	}

	/** Reads a level's {@code level.json} from its directory. */
	public static LevelFacts readFacts(Path dir) {
		return json.treeToValue(nested(json.readTree(dir.resolve(LevelDir.FACTS).toFile())), LevelFacts.class);
	}

	/** One row of {@code summary.json}'s {@code results}: the level as its two fields, then the load they amount to. */
	public static ObjectNode row(LevelResult result) {
		return flat(json.valueToTree(result), true);
	}

	/** The record's tree with {@code level} replaced, in its place, by the files' fields. */
	static ObjectNode flat(JsonNode node, boolean withLoad) {
		ObjectNode flat = json.createObjectNode();
		node.properties().forEach(field -> {
			switch (field.getKey()) {
				case "level" -> {
					Level level = json.treeToValue(field.getValue(), Level.class);
					flat.put("users", level.usersField()).put("ratePerSecond", level.ratePerSecondField());
					if (withLoad) {
						flat.put("load", level.amount());
					}
				}
				case "cappedFrom" -> flat.put("cappedFrom", field.getValue().isNumber() ? field.getValue().asInt() : 0);
				// Each declared metric its own field, where the map stands, in declaration order.
				case "sampled" -> {
					for (Metric metric : Metric.values()) {
						flat.set(metric.field(), field.getValue().path(metric.name()));
					}
				}
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
