package lab.run;

import java.nio.file.Path;

/** One entry of a capacity search: its module, its directory, its live service (null between JVMs) and whether its next probe is its JVM's first. */
final class SearchEntry {

	final String module;

	final Path dir;

	ServiceStart.Live live;

	boolean firstAfterWarmup = true;

	SearchEntry(String module, Path dir) {
		this.module = module;
		this.dir = dir;
	}

	/** "2nd": an entry's JVM by its number, as the console names it. */
	static String ordinal(int n) {
		return n + ((n % 100 >= 11 && n % 100 <= 13) ? "th" : switch (n % 10) {
			case 1 -> "st";
			case 2 -> "nd";
			case 3 -> "rd";
			default -> "th";
		});
	}

}
