package lab.json;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import lab.layout.Level;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The runner's one JSON mapper: every file the lab writes or reads (level.json, summary.json, the manifest, heap
 * snapshots, the services' read-backs) goes through it. Indented output; a {@link Level} known by its field
 * ({@code users} or {@code ratePerSecond}). Readers that must accept fields they do not know say so on their type.
 */
public final class Json {

	public static final JsonMapper MAPPER = JsonMapper.builder()
		.enable(SerializationFeature.INDENT_OUTPUT)
		.addMixIn(Level.class, LevelFormat.class)
		.build();

	@JsonTypeInfo(use = JsonTypeInfo.Id.DEDUCTION)
	@JsonSubTypes({ @JsonSubTypes.Type(Level.Closed.class), @JsonSubTypes.Type(Level.Open.class) })
	private interface LevelFormat {
	}

	private Json() {
	}

}
