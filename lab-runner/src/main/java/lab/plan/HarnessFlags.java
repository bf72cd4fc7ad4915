package lab.plan;

import java.util.List;

/** The JVM flags of the harness's own processes: what the injector and the downstream run with wherever they start. */
public final class HarnessFlags {

	/**
	 * Gatling needs the opens on JDK 17+ when launched outside its own tools. C1 only: each level starts a fresh
	 * injector JVM, and C2's warm-up took 60-100 % of the injector core for the first 20 s of a run here (measured
	 * at 2,000 rps: C2 settles at 11 % of a core after 20 s, C1 stays near 25 % from the 5th second), which would
	 * starve the downstream sharing that core and make short levels INVALID. Re-measured against the bare Netty
	 * downstream (2,000 users, 4,000 rps, Gatling alone on its core): with 30 s windows C2 costs less over the window
	 * (median of 3: 0.078 ms CPU per request against C1's 0.097; Serial GC 0.096 and 0.112), with 15 s windows C1
	 * does (0.104 against 0.128, one run each), and C2's first seconds still burst. C1 stays: no level's window
	 * starts while the injector's JIT owns the core.
	 * <p>
	 * The JDK's HTTPS proxy is a port nothing can listen on: Gatling asks Maven Central for its latest version at
	 * every start, with no setting to turn that off, and waits for the answer (up to 1 s to connect and 1 s to read;
	 * 0.6 s of each start here, 3 pairs, where Maven Central answers). Refused at once instead. Gatling's own HTTP
	 * client, which sends the load, does not read these properties.
	 */
	public static final List<String> INJECTOR = List.of("--add-opens=java.base/java.lang=ALL-UNNAMED",
			"--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-Xms512m", "-Xmx4g", "-Dhttps.proxyHost=127.0.0.1",
			"-Dhttps.proxyPort=0");

	/**
	 * The downstream must never add latency. With the JVM's default on one core (Serial GC, heap growing to a
	 * quarter of RAM) its young pauses reached 330 ms at 2,500 rps here, holding thousands of 500 ms timers
	 * alive; ZGC's pauses stay under a millisecond and its concurrent work shows in the injector cores' CPU.
	 */
	public static final List<String> DOWNSTREAM = List.of("-XX:+UseSerialGC", "-Xms1g", "-Xmx1g", "-Xmn512m", "-XX:+AlwaysPreTouch");

	private HarnessFlags() {
	}

}
