/* cli_model.h: the model's subcommands: `streamscope calibrate` and `streamscope validate`. */
#ifndef SS_CLI_CLI_MODEL_H
#define SS_CLI_CLI_MODEL_H

/* cli_calibrate: streamscope calibrate [-o FILE] [--backend cuda|model] [--profile FILE]. Measures the GPU and
 * writes the profile to FILE (through a temporary file), or to stdout. argv[0] is "calibrate". Returns the exit
 * status: 0, 2 usage, 3 no device or a failed run. */
int cli_calibrate(int argc, char **argv);
/* cli_validate: streamscope validate [--csv FILE] [--quick] [--check FILE] [--resume] [--backend B]
 * [--profile FILE] [--preset LIST] [--streams LIST] [--connections LIST]. Returns 0 when the model meets the
 * targets, 1 when it does not, 2 usage, 3 no device or a failed run. */
int cli_validate(int argc, char **argv);

#endif
