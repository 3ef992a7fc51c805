// SPDX-License-Identifier: GPL-2.0
/*
 * joydev-uinput - the joystick interface (drivers/input/joydev.c, touched
 * by the llseek series) on a joystick made through uinput: one trigger
 * button and two axes. joydev binds to it and makes /dev/input/js0, which
 * reports its axes and buttons, starts with one JS_EVENT_INIT event for
 * each, and turns an ABS_X event written through uinput into a
 * JS_EVENT_AXIS event; lseek on it says ESPIPE.
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <linux/joystick.h>
#include <linux/uinput.h>

#include "ktap.h"

#define JS "/dev/input/js0"

static int ui = -1, js = -1;

static int js_ready(void *arg)
{
	(void)arg;
	return access(JS, F_OK) ? KTAP_WAIT : KTAP_READY;
}

static int emit(int type, int code, int value)
{
	struct input_event ev = { .type = type, .code = code, .value = value };

	return write(ui, &ev, sizeof(ev)) == sizeof(ev);
}

static int make_joystick(void)
{
	struct uinput_setup setup = {
		.id = { .bustype = BUS_VIRTUAL, .vendor = 0x1d6b, .product = 0xb4f },
		.name = "bklfree joystick",
	};
	struct uinput_abs_setup abs = { .absinfo = { .minimum = -100, .maximum = 100 } };

	ui = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (ui < 0 || ioctl(ui, UI_SET_EVBIT, EV_KEY) || ioctl(ui, UI_SET_KEYBIT, BTN_TRIGGER) ||
	    ioctl(ui, UI_SET_EVBIT, EV_ABS) || ioctl(ui, UI_SET_ABSBIT, ABS_X) ||
	    ioctl(ui, UI_SET_ABSBIT, ABS_Y) || ioctl(ui, UI_DEV_SETUP, &setup))
		return 0;
	abs.code = ABS_X;
	if (ioctl(ui, UI_ABS_SETUP, &abs))
		return 0;
	abs.code = ABS_Y;
	if (ioctl(ui, UI_ABS_SETUP, &abs) || ioctl(ui, UI_DEV_CREATE))
		return 0;
	ktap_wait_dev("/dev/input", js_ready, NULL, 3000);
	js = open(JS, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	return js >= 0;
}

static int counts(void)
{
	unsigned char axes = 0, buttons = 0;

	return js >= 0 && !ioctl(js, JSIOCGAXES, &axes) &&
	       !ioctl(js, JSIOCGBUTTONS, &buttons) && axes == 2 && buttons == 1;
}

static int init_events(void)
{
	struct js_event ev;
	int n = 0;

	while (js >= 0 && read(js, &ev, sizeof(ev)) == sizeof(ev))
		n += !!(ev.type & JS_EVENT_INIT);
	ktap_diag("%d init events", n);
	return n == 3;
}

static int axis_event(void)
{
	struct pollfd p = { .fd = js, .events = POLLIN };
	struct js_event ev = { 0 };

	if (js < 0 || !emit(EV_ABS, ABS_X, 50) || !emit(EV_SYN, SYN_REPORT, 0) ||
	    poll(&p, 1, 3000) != 1 || read(js, &ev, sizeof(ev)) != sizeof(ev))
		return 0;
	return ev.type == JS_EVENT_AXIS && ev.number == 0 && ev.value != 0;
}

static int js_lseek(void)
{
	return js >= 0 && lseek(js, 0, SEEK_SET) < 0 && errno == ESPIPE;
}

static int destroy(void)
{
	close(js);
	return ui >= 0 && !ioctl(ui, UI_DEV_DESTROY) && !close(ui);
}

static const struct ktap_case cases[] = {
	{ "uinput joystick: joydev makes " JS, make_joystick },
	{ "js0: JSIOCGAXES 2, JSIOCGBUTTONS 1", counts },
	{ "js0: one JS_EVENT_INIT event per axis and button", init_events },
	{ "js0: ABS_X through uinput arrives as JS_EVENT_AXIS 0", axis_event },
	{ "js0: lseek is ESPIPE", js_lseek },
	{ "uinput: UI_DEV_DESTROY removes the joystick", destroy },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ "/dev/uinput", NULL },
	.timeout = 30,
	.upstream = "patches/core llseek series (drivers/input/joydev.c)",
	.cases = cases,
};
