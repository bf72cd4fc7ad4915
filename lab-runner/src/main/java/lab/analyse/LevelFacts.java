package lab.analyse;

/**
 * What the runner itself observed about one level, written to {@code level.json} beside the injector's files:
 * the facts a verdict needs that no metric carries.
 *
 * @param variant the service under test
 * @param users concurrent users run (after any descriptor cap), 0 for the open model
 * @param ratePerSecond arrival rate, 0 for the closed models
 * @param cappedFrom users asked for when the descriptor limit forced fewer, else 0
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
 * @param problems what the runner saw go wrong (contract check, start-up), in words
 */
public record LevelFacts(String variant, int users, int ratePerSecond, int cappedFrom, long delayMs, int repeat,
		boolean warmedUp, int serviceCpus, int injectorCpus, boolean serviceAlive, Integer exitCode, boolean outOfMemory,
		int injectorExitCode, java.util.List<String> evidence, java.util.List<String> problems) {

	public int load() {
		return (this.ratePerSecond > 0) ? this.ratePerSecond : this.users;
	}

	/** Little's law: N closed users on a D-second downstream produce at most N / D requests a second. */
	public double ceilingRps() {
		if (this.ratePerSecond > 0) {
			return this.ratePerSecond;
		}
		return (this.delayMs == 0) ? Double.NaN : this.users * 1000.0 / this.delayMs;
	}

}
