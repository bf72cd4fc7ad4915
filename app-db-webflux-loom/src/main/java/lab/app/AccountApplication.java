package lab.app;

import java.util.concurrent.Executors;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

@SpringBootApplication
public class AccountApplication {

	public static void main(String[] args) {
		SpringApplication.run(AccountApplication.class, args);
	}

	/**
	 * ONE scheduler for the whole application, a new virtual thread per task (the common idiom, as app-webflux-loom's
	 * default): the blocking JDBC call runs there, off the event loop.
	 */
	@Bean(destroyMethod = "dispose")
	Scheduler virtualThreads() {
		return Schedulers.fromExecutorService(Executors.newVirtualThreadPerTaskExecutor(), "virtual-threads");
	}

}
