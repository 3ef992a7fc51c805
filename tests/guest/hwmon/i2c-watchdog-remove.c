// SPDX-License-Identifier: GPL-2.0
/*
 * i2c-watchdog-remove - the watchdogs of fschmd and w83793 closed after
 * their chip is removed, without the magic V (the i2c-chips profile, after
 * hwmon/i2c-chips bound both chips on i2c-stub).
 *
 * Both drivers' remove() stops a watchdog that is still open, clears
 * data->client under watchdog_lock and leaves the data to the open file's
 * reference. The file's release then sees no magic close, triggers the
 * watchdog (which finds no client and does nothing) and prints "unexpected
 * close" with dev_crit(&data->client->dev, ...): a NULL pointer
 * dereference on 6.1 (drivers 0409 for w83793, 0410 for fschmd). Each
 * close runs in a child process, so that an oops kills the child, not the
 * test: a case passes when the child's close returned and it exited.
 *
 * Cases, per chip: the watchdog node opens; delete_device removes the
 * chip and its node; the close after that returns (the child was not
 * killed). The chips are gone afterwards: this test comes last.
 */
#include <fcntl.h>
#include <sys/wait.h>

#include "hwmon/i2c-stub.h"
#include "ktap.h"

/*
 * In a child: open node, remove the chip at addr, close without the magic
 * V. One byte to the parent per step done: 'o' open, 'd' chip and node
 * gone, 'c' the close returned.
 */
static __attribute__((noreturn)) void child(int bus, int addr,
					    const char *node, int out)
{
	int fd = open(node, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(out, "o", 1) != 1)
		_exit(1);
	if (!i2c_stub_delete(bus, addr) || !access(node, F_OK) || write(out, "d", 1) != 1)
		_exit(1);
	close(fd);
	_exit(write(out, "c", 1) == 1 ? 0 : 1);
}

static void remove_open(int bus, const char *chip, int addr, const char *node)
{
	char steps[4] = "";
	int status = 0, p[2] = { -1, -1 };
	ssize_t n = 0;
	pid_t pid = -1;

	fflush(stdout);
	if (bus >= 0 && !pipe(p))
		pid = fork();
	if (pid == 0) {
		close(p[0]);
		child(bus, addr, node, p[1]);
	}
	close(p[1]);
	if (pid > 0) {
		n = read(p[0], steps, sizeof(steps) - 1);
		while (n > 0 && n < 3) {
			ssize_t m = read(p[0], steps + n, sizeof(steps) - 1 - (size_t)n);

			if (m <= 0)
				break;
			n += m;
		}
		waitpid(pid, &status, 0);
	}
	close(p[0]);
	if (strcmp(steps, "odc") || !WIFEXITED(status) || WEXITSTATUS(status))
		ktap_diag("%s: steps done '%s'; child %s %d", chip, steps,
			  WIFSIGNALED(status) ? "killed by signal" : "exit",
			  WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	ktap_ok(strchr(steps, 'o') != NULL, "%s: %s opens", chip, node);
	ktap_ok(strchr(steps, 'd') != NULL,
		"%s: delete_device removes the chip and %s under the open file", chip, node);
	ktap_ok(strchr(steps, 'c') && WIFEXITED(status) && !WEXITSTATUS(status),
		"%s: closing it without the magic V after the remove returns", chip);
}

static void run(void)
{
	int bus = i2c_stub_bus();

	if (bus < 0)
		ktap_diag("no i2c-stub adapter in /sys/bus/i2c/devices");
	remove_open(bus, "w83793", 0x2f, "/dev/watchdog1");
	remove_open(bus, "fschmd", 0x73, "/dev/watchdog");
}

const struct ktap_test ktap_test = {
	.plan = 6,
	.devices = (const char *const[]){ "/dev/watchdog", "/dev/watchdog1", NULL },
	.kconfig = (const char *const[]){ "CONFIG_I2C_STUB",
					  "CONFIG_SENSORS_FSCHMD",
					  "CONFIG_SENSORS_W83793", NULL },
	.timeout = 30,
	.upstream = "drivers/hwmon/w83793.c, drivers/hwmon/fschmd.c (watchdog close after remove)",
	.run = run,
};
