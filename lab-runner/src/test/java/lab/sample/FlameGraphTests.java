package lab.sample;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The flame graph on three hand-made stacks: every frame as wide as its share of the samples. */
class FlameGraphTests {

	@Test
	void eachFrameIsAsWideAsItsShareOfTheSamples() {
		// 4 samples in all: main 4 (100%), main;a 3 (75%), main;a;x 1 (25%), main;b 1 (25%). At 1,200 px: 1,200, 900, 300, 300.
		String svg = FlameGraph.svg(List.of("main;a 2", "main;a;x 1", "main;b 1"), "test");
		assertThat(svg).startsWith("<svg").contains("test (4 samples)").doesNotContain("<script");
		assertThat(svg).contains("<title>all (4 samples, 100.0%)</title><rect x=\"0.0\" y=\"").contains("width=\"1200.0\"");
		assertThat(svg).contains("<title>main (4 samples, 100.0%)</title>");
		assertThat(svg).contains("<title>a (3 samples, 75.0%)</title><rect x=\"0.0\"").contains("width=\"900.0\"");
		assertThat(svg).contains("<title>x (1 samples, 25.0%)</title>");
		assertThat(svg).contains("<title>b (1 samples, 25.0%)</title><rect x=\"900.0\"").contains("width=\"300.0\"");
	}

	@Test
	void linesThatAreNotStacksAreSkipped() {
		assertThat(FlameGraph.svg(List.of("", "no-count", "main;a x"), "empty")).contains("empty (0 samples)").doesNotContain("<rect x=");
	}

}
