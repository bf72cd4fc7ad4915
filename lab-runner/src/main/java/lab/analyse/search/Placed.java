package lab.analyse.search;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.analyse.search.JvmLevels.Tagged;

/**
 * The crossing logic of a search: one entry's counted probes placed as crossings at a given elasticity, each round's
 * from its own probes ({@link Crossing#at}), never above its wall; and the log ratios of two entries within the rounds
 * both placed one in.
 */
record Placed(String entry, List<RoundProbe> counted, Elasticity elasticity, int wall, List<Integer> rounds, double targetMs,
		double floorMs) {

	/** Each counted round's crossing that the entry's probes of that round placed (their geometric mean), by round. */
	Map<Integer, Tagged> byRound(double slope) {
		Map<Integer, Tagged> values = new LinkedHashMap<>();
		for (int round : this.rounds) {
			List<RoundProbe> inRound = this.counted.stream().filter(p -> p.round() == round).toList();
			double[] logs = inRound.stream().mapToDouble(p -> capped(Crossing.at(p, slope, this.targetMs, this.floorMs)))
				.filter(c -> c > 0 && Double.isFinite(c)).map(Math::log).toArray();
			if (logs.length > 0) {
				values.put(round, new Tagged("jvm" + inRound.get(0).jvmNumber(), java.util.Arrays.stream(logs).average().orElseThrow()));
			}
		}
		return values;
	}

	double capped(double crossing) {
		return (this.wall > 0 && crossing > this.wall) ? this.wall : crossing;
	}

	/** Whether any crossing at {@code slope} met the wall. */
	boolean walled(double slope) {
		return this.wall > 0 && this.counted.stream().anyMatch(p -> Crossing.at(p, slope, this.targetMs, this.floorMs) >= this.wall);
	}

	double highestMetBelowWall() {
		return this.counted.stream().filter(p -> Boolean.TRUE.equals(p.meets()) && p.load() < this.wall).mapToInt(RoundProbe::load).max()
			.orElse(this.wall / 2);
	}

	List<Tagged> tagged(double slope) {
		return List.copyOf(byRound(slope).values());
	}

	double meanLog(double slope) {
		return meanOfUnits(tagged(slope));
	}

	List<Double> crossings(double slope) {
		Map<Integer, Tagged> values = byRound(slope);
		return this.rounds.stream().map(r -> values.containsKey(r) ? Math.exp(values.get(r).log()) : Double.NaN).toList();
	}

	/** Within each counted round where both placed a crossing: the log ratio, tagged with the pair of JVMs. */
	static List<Tagged> ratioTagged(Placed a, Placed b, double slopeA, double slopeB) {
		Map<Integer, Tagged> ofA = a.byRound(slopeA);
		Map<Integer, Tagged> ofB = b.byRound(slopeB);
		List<Tagged> values = new ArrayList<>();
		ofA.forEach((round, ta) -> {
			Tagged tb = ofB.get(round);
			if (tb != null) {
				values.add(new Tagged(ta.unit() + "/" + tb.unit(), ta.log() - tb.log()));
			}
		});
		return values;
	}

	static double meanOfUnits(List<Tagged> values) {
		Map<String, double[]> sums = new LinkedHashMap<>();
		values.forEach(t -> {
			double[] s = sums.computeIfAbsent(t.unit(), k -> new double[2]);
			s[0] += t.log();
			s[1]++;
		});
		return sums.values().stream().mapToDouble(s -> s[0] / s[1]).average().orElse(Double.NaN);
	}

	/** The limit of the counted probe nearest {@code load} (in log load) that names one. */
	static String limitAt(List<RoundProbe> counted, double load) {
		return counted.stream().filter(p -> p.limit() != null && !p.limit().isEmpty())
			.min(java.util.Comparator.comparingDouble(p -> Double.isFinite(load) ? Math.abs(Math.log(p.load() / load)) : 0))
			.map(RoundProbe::limit).orElse("");
	}

	/** The lowest load at which a counted probe broke the JVM or missed by more than twice: crossings are never placed above it (0: none). */
	static int wall(List<RoundProbe> counted, double targetMs) {
		return counted.stream().filter(p -> Crossing.wallAt(p, targetMs)).mapToInt(RoundProbe::load).min().orElse(0);
	}

}
