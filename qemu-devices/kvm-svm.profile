description=DRAFT kvm_amd nested svm under TCG
kconfig=CONFIG_HIGH_RES_TIMERS=y
kconfig=CONFIG_VIRTUALIZATION=y
kconfig=CONFIG_KVM=m
kconfig=CONFIG_KVM_AMD=m
tests=core/chardev
timeout=90
