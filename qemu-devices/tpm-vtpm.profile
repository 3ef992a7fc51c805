# A TPM with no TPM: tpm_vtpm_proxy's /dev/vtpmx makes a TPM 2.0 device
# whose other end is a file descriptor the test answers as the TPM, so
# the TPM core's character devices (/dev/tpm0, /dev/tpmrm0) run.
description=tpm_vtpm_proxy: /dev/vtpmx, /dev/tpm0, /dev/tpmrm0 answered by the test
kconfig=CONFIG_TCG_TPM=m
kconfig=CONFIG_TCG_VTPM_PROXY=m
module=tpm_vtpm_proxy
tests=tpm/vtpm-proxy
timeout=60
