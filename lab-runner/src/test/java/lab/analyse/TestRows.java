package lab.analyse;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.analyse.judge.Figure;
import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.analyse.measure.Headroom;
import lab.analyse.measure.Metric;
import lab.analyse.measure.RequestFigures;
import lab.layout.Level;

/** A hand-made level row: the figures named, every other declared figure NaN (not measured). */
public final class TestRows {

	private final String variant;

	private final Level level;

	private int repeats = 1;

	private final Map<Figure, Double> figures = new LinkedHashMap<>();

	private Headroom headroom = Headroom.UNKNOWN;

	private LevelResult.Verdict verdict = LevelResult.Verdict.OK;

	private List<String> reasons = List.of();

	private Boolean meets;

	private List<RequestFigures> byRequest = List.of();

	private TestRows(String variant, Level level) {
		this.variant = variant;
		this.level = level;
		Figures.ALL.forEach(figure -> this.figures.put(figure, Double.NaN));
	}

	public static TestRows row(String variant, Level level) {
		return new TestRows(variant, level);
	}

	public TestRows repeats(int repeats) {
		this.repeats = repeats;
		return this;
	}

	/** Figures and their values, in pairs: {@code set(Figures.RPS, 200, Figures.P99_ALL_MS, 500)}. */
	public TestRows set(Object... pairs) {
		for (int i = 0; i + 1 < pairs.length; i += 2) {
			Figure figure = (pairs[i] instanceof Metric metric) ? Figures.of(metric) : (Figure) pairs[i];
			this.figures.put(figure, ((Number) pairs[i + 1]).doubleValue());
		}
		return this;
	}

	public TestRows headroom(Headroom headroom) {
		this.headroom = headroom;
		return this;
	}

	public TestRows verdict(LevelResult.Verdict verdict, String... reasons) {
		this.verdict = verdict;
		this.reasons = List.of(reasons);
		return this;
	}

	public TestRows reasons(List<String> reasons) {
		this.reasons = List.copyOf(reasons);
		return this;
	}

	/** Whether the level met the latency target (null: not judged, the default). */
	public TestRows meets(Boolean meets) {
		this.meets = meets;
		return this;
	}

	/** A service of the user's own: its named requests' figures. */
	public TestRows byRequest(RequestFigures... requests) {
		this.byRequest = List.of(requests);
		return this;
	}

	public LevelResult build() {
		return new LevelResult(this.variant, this.level, this.repeats, this.figures, this.headroom, this.verdict, this.meets, this.reasons, List.of(), List.of(),
				List.of(), List.of(), this.byRequest);
	}

}
