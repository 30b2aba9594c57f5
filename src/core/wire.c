/* wire.c: writing the capture message stream. */
#include "core/wire.h"

#include <string.h>

/* Header of one frame. */
struct wire_hdr {
	uint32_t type;
	uint32_t len;
};

int wire_open(struct wire_writer *w, int fd)
{
	w->broken = false;
	w->out = fdopen(fd, "w");
	if (w->out == NULL)
		return -1;
	setvbuf(w->out, NULL, _IOFBF, 1 << 16);
	return 0;
}

static void wire_send(struct wire_writer *w, uint32_t type, const void *a, size_t alen, const void *b, size_t blen)
{
	struct wire_hdr h = {type, (uint32_t)(alen + blen)};

	if (w->out == NULL || w->broken)
		return;
	if (fwrite(&h, sizeof h, 1, w->out) != 1 || (alen && fwrite(a, alen, 1, w->out) != 1) ||
	    (blen && fwrite(b, blen, 1, w->out) != 1))
		w->broken = true;
}

void wire_record(struct wire_writer *w, const struct ss_record *r, const char *name)
{
	wire_send(w, WIRE_RECORD, r, sizeof *r, name, name ? strnlen(name, 4096) : 0);
}

void wire_stream(struct wire_writer *w, int index, uint32_t raw_id, int kind)
{
	struct wire_stream s = {index, raw_id, (uint32_t)kind};

	wire_send(w, WIRE_STREAM, &s, sizeof s, NULL, 0);
}

void wire_device(struct wire_writer *w, int index, const char *name, const char *uuid, uint32_t context,
                 int copy_engines)
{
	struct wire_device d;

	memset(&d, 0, sizeof d);
	d.index = index;
	d.context = context;
	d.copy_engines = copy_engines;
	snprintf(d.name, sizeof d.name, "%s", name != NULL ? name : "");
	snprintf(d.uuid, sizeof d.uuid, "%s", uuid != NULL ? uuid : "");
	wire_send(w, WIRE_DEVICE, &d, sizeof d, NULL, 0);
}

void wire_launch(struct wire_writer *w, const struct ss_launch *l, const char *full_name)
{
	struct ss_launch c = *l;

	c.full_name = 0;
	wire_send(w, WIRE_LAUNCH, &c, sizeof c, full_name, full_name ? strnlen(full_name, 4096) : 0);
}

void wire_progress(struct wire_writer *w, const char *msg)
{
	wire_send(w, WIRE_PROGRESS, msg, strnlen(msg, 120), NULL, 0);
	wire_flush(w);
}

void wire_result(struct wire_writer *w, const struct ss_run_result *res)
{
	wire_send(w, WIRE_RESULT, res, sizeof *res, NULL, 0);
	wire_flush(w);
}

void wire_error(struct wire_writer *w, int code, const char *msg)
{
	int32_t c = code;

	wire_send(w, WIRE_ERROR, &c, sizeof c, msg, strlen(msg));
	wire_flush(w);
}

void wire_flush(struct wire_writer *w)
{
	if (w->out != NULL && !w->broken && fflush(w->out) != 0)
		w->broken = true;
}

void wire_close(struct wire_writer *w)
{
	if (w->out != NULL)
		fclose(w->out);
	w->out = NULL;
}
