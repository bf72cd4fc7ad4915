package lab.analyse.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.analyse.read.Latency;
import lab.analyse.stat.Stats;
import lab.layout.LatencyTarget;
import lab.layout.RequestMix;
import lab.layout.RunDir;
import org.HdrHistogram.Histogram;

/**
 * One named request of a service of the user's own at one level: its count, errors and latency in the steady window,
 * from the injector's per-request histograms ({@link lab.layout.LevelDir#LATENCY_BY_REQUEST}), every injector merged;
 * and its own latency target, judged like the level's on its own figures. Requests sent without an outcome
 * (unanswered) count in the level's figures, not here.
 *
 * @param name the request's name in the service file
 * @param requests its requests with an outcome in the window (successes and failures)
 * @param errors those that failed (a status other than the one it names, a timeout, a refused connection)
 * @param errorPercent errors of requests in %
 * @param p50Ms its median, every outcome (failures at the time they took to fail)
 * @param p99Ms its 99th percentile, every outcome
 * @param maxMs its slowest
 * @param target its own target as written ({@code p99<=300ms,errors<=0.1%}), null for none
 * @param targetLatencyMs the latency its target reads (the percentile it names, or the maximum); NaN without a target
 * @param meetsTarget whether its figures met that target; null without one
 */
public record RequestFigures(String name, long requests, long errors, double errorPercent, double p50Ms, double p99Ms, double maxMs,
		String target, double targetLatencyMs, Boolean meetsTarget) {

	/** The level's requests by name, in the mix's order; empty for a level without per-request histograms. */
	static List<RequestFigures> of(Map<Integer, Latency> byRequest, Path resultsRoot) throws IOException {
		Path file = resultsRoot.resolve(RunDir.REQUEST_MIX);
		if (byRequest.isEmpty() || !Files.isRegularFile(file)) {
			return List.of();
		}
		List<RequestMix.Request> mix = RequestMix.read(file);
		List<RequestFigures> figures = new ArrayList<>();
		for (int i = 0; i < mix.size(); i++) {
			Latency latency = byRequest.getOrDefault(i, Latency.empty());
			Histogram all = latency.all(0, 0);
			long errors = latency.ko().getTotalCount();
			String target = mix.get(i).target();
			double targetLatency = (target == null) ? Double.NaN : Latency.millis(all, Math.min(100, LatencyTarget.parse(target).percentile()));
			figures.add(judged(mix.get(i).name(), all.getTotalCount(), errors, Latency.millis(all, 50), Latency.millis(all, 99),
					(all.getTotalCount() == 0) ? Double.NaN : all.getMaxValue() / 1000.0, target, targetLatency));
		}
		return List.copyOf(figures);
	}

	/** A request's figures judged against its own target, if it has one ({@code targetLatencyMs}: what the target reads). */
	static RequestFigures judged(String name, long requests, long errors, double p50Ms, double p99Ms, double maxMs, String target,
			double targetLatencyMs) {
		double errorPercent = (requests == 0) ? Double.NaN : 100.0 * errors / requests;
		Boolean meets = null;
		if (target != null) {
			LatencyTarget parsed = LatencyTarget.parse(target);
			meets = requests > 0 && targetLatencyMs <= parsed.maxMs() && errorPercent <= parsed.maxErrorPercent();
		}
		return new RequestFigures(name, requests, errors, errorPercent, p50Ms, p99Ms, maxMs, target, targetLatencyMs, meets);
	}

	/** Several repeats' requests as one: each figure's median over the repeats, by name, judged again. */
	public static List<RequestFigures> median(Collection<List<RequestFigures>> repeats) {
		Map<String, List<RequestFigures>> byName = new LinkedHashMap<>();
		repeats.forEach(repeat -> repeat.forEach(r -> byName.computeIfAbsent(r.name(), k -> new ArrayList<>()).add(r)));
		List<RequestFigures> combined = new ArrayList<>();
		byName.forEach((name, rows) -> combined.add(judged(name, Math.round(Stats.median(rows, RequestFigures::requests)),
				Math.round(Stats.median(rows, RequestFigures::errors)), Stats.median(rows, RequestFigures::p50Ms),
				Stats.median(rows, RequestFigures::p99Ms), Stats.median(rows, RequestFigures::maxMs), rows.get(0).target(),
				Stats.median(rows, RequestFigures::targetLatencyMs))));
		return List.copyOf(combined);
	}

}
