package lab.json;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import lab.layout.LatencyTarget;
import lab.layout.Level;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * The runner's one JSON mapper: every file the lab writes or reads (level.json, summary.json, the manifest, heap
 * snapshots, the services' read-backs) goes through it. Indented output; a {@link Level} known by its field
 * ({@code users} or {@code ratePerSecond}); a {@link LatencyTarget} as it is written ({@link #TARGET}). Readers that must
 * accept fields they do not know say so on their type.
 */
public final class Json {

	/**
	 * A latency target as one string, the way it is written ({@code p99<=1000ms,errors<=0.1%}), read back parsed: for
	 * every mapper of the lab, the YAML ones of scenario and service files included. A target that does not parse is the
	 * parser's one line ({@link LatencyTarget#parse}), as an {@link IllegalArgumentException} under the mapper's.
	 */
	public static final SimpleModule TARGET = new SimpleModule("latency-target")
		.addSerializer(LatencyTarget.class, new StdSerializer<>(LatencyTarget.class) {
			@Override
			public void serialize(LatencyTarget target, JsonGenerator out, SerializationContext context) {
				out.writeString(target.text());
			}
		})
		.addDeserializer(LatencyTarget.class, new StdDeserializer<>(LatencyTarget.class) {
			@Override
			public LatencyTarget deserialize(JsonParser in, DeserializationContext context) {
				return LatencyTarget.parse(in.getValueAsString());
			}
		});

	public static final JsonMapper MAPPER = JsonMapper.builder()
		.enable(SerializationFeature.INDENT_OUTPUT)
		.addMixIn(Level.class, LevelFormat.class)
		.addModule(TARGET)
		.build();

	@JsonTypeInfo(use = JsonTypeInfo.Id.DEDUCTION)
	@JsonSubTypes({ @JsonSubTypes.Type(Level.Closed.class), @JsonSubTypes.Type(Level.Open.class) })
	private interface LevelFormat {
	}

	private Json() {
	}

}
