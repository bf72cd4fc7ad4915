package lab.analyse;

import lab.analyse.judge.LevelResult;
import lab.analyse.read.LevelFacts;
import lab.json.Json;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A level's row in {@code summary.json}: the level as its two numbers, {@code users} and {@code ratePerSecond} (the one
 * that does not apply written as 0, as in {@code level.json}, whose reading and writing {@link LevelFacts} holds), the
 * declared figures a field each, the verdict, its limit and why. Also the runner's one mapper under the name the
 * run and the report use.
 */
public final class LevelJson {

	/** Reads and writes the runner's results records: the runner's one mapper ({@link lab.json.Json}). */
	public static final JsonMapper json = Json.MAPPER;

	private LevelJson() {
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
		row.put("limit", result.limit());
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

}
