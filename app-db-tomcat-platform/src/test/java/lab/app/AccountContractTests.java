package lab.app;

import org.junit.jupiter.api.Tag;

/** The database set's contract ({@link lab.db.AccountContractTests}) against this service and a real PostgreSQL. */
@Tag("slow") // not in ./lab test --fast: starts PostgreSQL
class AccountContractTests extends lab.db.AccountContractTests {

	@Override
	protected String module() {
		return "app-db-tomcat-platform";
	}

	@Override
	protected String poolMaxMeter() {
		return "hikaricp_connections_max";
	}

	@Override
	protected String poolInUseMeter() {
		return "hikaricp_connections_active";
	}

}
