package lab.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import lab.plan.Variant;
import lab.generate.VariantFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the repository's other files list of the variants is what {@code ./lab generate} makes of {@code variants.yml}:
 * a variant added there and not generated fails here, with the command that fixes it.
 */
class GeneratedFilesTests {

	@Test
	void everyGeneratedPartIsUpToDate() {
		assertThat(VariantFiles.stale(Repo.root(), Variant.ALL)).as("out of date: run ./lab generate").isEmpty();
	}

	/** A sixth variant, generated into copies of the files: it appears everywhere a variant is listed. */
	@Test
	void aNewVariantReachesEveryFileThatListsTheVariants(@TempDir Path copy) throws Exception {
		for (VariantFiles.Part part : VariantFiles.PARTS) {
			Files.createDirectories(copy.resolve(part.file()).getParent());
			Files.copy(Repo.root().resolve(part.file()), copy.resolve(part.file()));
		}
		List<Variant> variants = new ArrayList<>(Variant.ALL);
		variants.add(new Variant("app-undertow-loom", "Spring MVC on a made-up server", 8099));
		assertThat(VariantFiles.stale(copy, variants)).hasSize(VariantFiles.PARTS.size());

		assertThat(VariantFiles.write(copy, variants)).hasSize(VariantFiles.PARTS.size());

		assertThat(VariantFiles.stale(copy, variants)).isEmpty();
		String compose = Files.readString(copy.resolve("docker-compose.yml"));
		assertThat(compose).contains("  app-undertow-loom:\n").contains("MODULE: app-undertow-loom").contains("${LAB_UNDERTOW_LOOM_PORT:-8099}:8099");
		assertThat(Files.readString(copy.resolve("prometheus/prometheus.yml"))).contains("- app-undertow-loom:9099");
		assertThat(Files.readString(copy.resolve("terraform/main.tf"))).containsPattern("\"app-undertow-loom\" +?= 8099");
		assertThat(Files.readString(copy.resolve("terraform/variables.tf"))).contains("\"app-tomcat-loom\", \"app-webflux\"").contains("app-undertow-loom\"]");
		assertThat(Files.readString(copy.resolve("terraform/terraform.tfvars.example"))).contains("\"app-undertow-loom\"]");
		assertThat(Files.readString(copy.resolve("README.md"))).contains("| `app-undertow-loom` | Spring MVC on a made-up server | 8099 |");
		// What lies outside the generated parts is kept as it was.
		assertThat(compose).startsWith(Files.readString(Repo.root().resolve("docker-compose.yml")).substring(0, 200));
		assertThat(compose).contains("  prometheus:\n");
	}

}
