package lab.gatling;

import java.nio.file.Path;

import lab.layout.LatencyTarget;
import lab.layout.Level;
import lab.layout.LoadParameters;
import lab.layout.LoadShape;

/**
 * Every -D parameter of the simulation, read in one place through the runner's and the simulation's one contract,
 * {@link LoadParameters} (names, defaults of a standalone run, and the rule that a lab run gives every one).
 *
 * @param baseUrl the service under test
 * @param shape closed | open | spike | soak
 * @param level concurrent users ({@code -Dusers}) for the closed, spike and soak shapes, arrivals per second
 * ({@code -DratePerSecond}) for the open one; only the one the shape uses is read
 * @param delayMs what each request asks the downstream to wait
 * @param rampSeconds time to reach the full load
 * @param holdSeconds time at the full load: the measured window
 * @param tailSeconds the load kept on after the window, unmeasured (the runner looks at the heap there)
 * @param requestTimeoutMs a request without an answer by then is a KO of kind timeout
 * @param outDir where the HdrHistogram log and the per-second request counts go
 * @param target the latency target, as Gatling's assertions; null for none
 * @param requestPath what each request asks for: {@code /address/{delayMs}}, with the work per request if any
 */
public record LabParameters(String baseUrl, LoadShape shape, Level level, long delayMs,
		int rampSeconds, int holdSeconds, int tailSeconds, long requestTimeoutMs, Path outDir, LatencyTarget target, String requestPath) {

	public static LabParameters fromSystemProperties() {
		LoadParameters load = LoadParameters.read(System::getProperty);
		return new LabParameters(load.baseUrl(), load.shape(), load.level(), load.delayMs(), load.rampSeconds(), load.holdSeconds(),
				load.tailSeconds(), load.requestTimeoutMs(), Path.of(LoadParameters.outDir(System::getProperty)), load.target(),
				load.requestPath());
	}

}
