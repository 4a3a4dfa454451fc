// ---- dynshared_slice_write
// uses: ["ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            x: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let d = __blk.dynamic_shared::<i32>();
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let sm1 = d
                            .shared_view()
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Range(
                                        ::rumba::kernel::Slice::new(
                                            ::core::option::Option::Some(((0isize) as isize)),
                                            ::core::option::Option::Some(((1isize) as isize)),
                                            1isize,
                                        ),
                                    ),
                                ],
                            );
                        let sm2 = d
                            .shared_view()
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Range(
                                        ::rumba::kernel::Slice::new(
                                            ::core::option::Option::Some(((1isize) as isize)),
                                            ::core::option::Option::Some(((2isize) as isize)),
                                            1isize,
                                        ),
                                    ),
                                ],
                            );
                        sm1.set(0usize, 1i32);
                        sm2.set(0usize, 2i32);
                        x.set(0usize, d.get(0usize));
                        x.set(1usize, d.get(1usize));
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let x = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &x))
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &x))
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- dynshared_slice_read
// uses: ["ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            x: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let d = __blk.dynamic_shared::<i32>();
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let sm1 = d
                            .shared_view()
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Range(
                                        ::rumba::kernel::Slice::new(
                                            ::core::option::Option::Some(((0isize) as isize)),
                                            ::core::option::Option::Some(((1isize) as isize)),
                                            1isize,
                                        ),
                                    ),
                                ],
                            );
                        let sm2 = d
                            .shared_view()
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Range(
                                        ::rumba::kernel::Slice::new(
                                            ::core::option::Option::Some(((1isize) as isize)),
                                            ::core::option::Option::Some(((2isize) as isize)),
                                            1isize,
                                        ),
                                    ),
                                ],
                            );
                        d.set(0usize, 1i32);
                        d.set(1usize, 2i32);
                        x.set(0usize, sm1.get(0usize));
                        x.set(1usize, sm2.get(0usize));
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let x = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &x))
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &x))
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- dynshared_slice_diff_sizes
// uses: ["ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            x: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let d = __blk.dynamic_shared::<i32>();
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let sm1 = d
                            .shared_view()
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Range(
                                        ::rumba::kernel::Slice::new(
                                            ::core::option::Option::Some(((0isize) as isize)),
                                            ::core::option::Option::Some(((1isize) as isize)),
                                            1isize,
                                        ),
                                    ),
                                ],
                            );
                        let sm2 = d
                            .shared_view()
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Range(
                                        ::rumba::kernel::Slice::new(
                                            ::core::option::Option::Some(((1isize) as isize)),
                                            ::core::option::Option::Some(((3isize) as isize)),
                                            1isize,
                                        ),
                                    ),
                                ],
                            );
                        for i in (0usize)..(3usize) {
                            d.set(i, (((i) as i32)).wrapping_add(1i32));
                        }
                        x.set(0usize, sm1.get(0usize));
                        x.set(1usize, sm2.get(0usize));
                        x.set(2usize, sm2.get(1usize));
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let x = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &x))
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &x))
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- dynshared_slice_overlap
// uses: ["ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            x: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let d = __blk.dynamic_shared::<i32>();
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let sm1 = d
                            .shared_view()
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Range(
                                        ::rumba::kernel::Slice::new(
                                            ::core::option::Option::Some(((0isize) as isize)),
                                            ::core::option::Option::Some(((2isize) as isize)),
                                            1isize,
                                        ),
                                    ),
                                ],
                            );
                        let sm2 = d
                            .shared_view()
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Range(
                                        ::rumba::kernel::Slice::new(
                                            ::core::option::Option::Some(((1isize) as isize)),
                                            ::core::option::Option::Some(((4isize) as isize)),
                                            1isize,
                                        ),
                                    ),
                                ],
                            );
                        for i in (0usize)..(4usize) {
                            d.set(i, (((i) as i32)).wrapping_add(1i32));
                        }
                        x.set(0usize, sm1.get(0usize));
                        x.set(1usize, sm1.get(1usize));
                        x.set(2usize, sm2.get(0usize));
                        x.set(3usize, sm2.get(1usize));
                        x.set(4usize, sm2.get(2usize));
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let x = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &x))
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &x))
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- dynshared_slice_gaps
// uses: ["ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            x: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let d = __blk.dynamic_shared::<i32>();
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let sm1 = d
                            .shared_view()
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Range(
                                        ::rumba::kernel::Slice::new(
                                            ::core::option::Option::Some(((1isize) as isize)),
                                            ::core::option::Option::Some(((3isize) as isize)),
                                            1isize,
                                        ),
                                    ),
                                ],
                            );
                        let sm2 = d
                            .shared_view()
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Range(
                                        ::rumba::kernel::Slice::new(
                                            ::core::option::Option::Some(((4isize) as isize)),
                                            ::core::option::Option::Some(((6isize) as isize)),
                                            1isize,
                                        ),
                                    ),
                                ],
                            );
                        for i in (0usize)..(7usize) {
                            d.set(i, 99i32);
                        }
                        sm1.set(0usize, 1i32);
                        sm1.set(1usize, 2i32);
                        sm2.set(0usize, 3i32);
                        sm2.set(1usize, 4i32);
                        for i_2 in (0usize)..(7usize) {
                            x.set(i_2, d.get(i_2));
                        }
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let x = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &x))
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &x))
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- dynshared_slice_backwards
// uses: ["ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            x: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let d = __blk.dynamic_shared::<i32>();
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let sm1 = d
                            .shared_view()
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Range(
                                        ::rumba::kernel::Slice::new(
                                            ::core::option::Option::Some(((1isize) as isize)),
                                            ::core::option::Option::None,
                                            (((-1isize)) as isize),
                                        ),
                                    ),
                                ],
                            );
                        let sm2 = d
                            .shared_view()
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Range(
                                        ::rumba::kernel::Slice::new(
                                            ::core::option::Option::Some(((3isize) as isize)),
                                            ::core::option::Option::Some(((1isize) as isize)),
                                            (((-1isize)) as isize),
                                        ),
                                    ),
                                ],
                            );
                        sm1.set(0usize, 1i32);
                        sm1.set(1usize, 2i32);
                        sm2.set(0usize, 3i32);
                        sm2.set(1usize, 4i32);
                        for i in (0usize)..(4usize) {
                            x.set(i, d.get(i));
                        }
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let x = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &x))
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &x))
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- dynshared_slice_strides
// uses: ["ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            x: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let d = __blk.dynamic_shared::<i32>();
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let sm1 = d
                            .shared_view()
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Range(
                                        ::rumba::kernel::Slice::new(
                                            ::core::option::Option::None,
                                            ::core::option::Option::None,
                                            ((2isize) as isize),
                                        ),
                                    ),
                                ],
                            );
                        for i in (0usize)..(6usize) {
                            d.set(i, 99i32);
                        }
                        for i_2 in (0usize)..(3usize) {
                            sm1.set(i_2, (((i_2) as i32)).wrapping_add(1i32));
                        }
                        for i_3 in (0usize)..(6usize) {
                            x.set(i_3, d.get(i_3));
                        }
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let x = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &x))
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &x))
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- dynshared_slice_negative_strides
// uses: ["ReadWrite"]
fn grid() {
    let _ = move |__launch: &::rumba::driver::HostLaunch<'_>| -> ::rumba::Result<()> {
        #[allow(unused, clippy::all, non_snake_case, unused_parens, unused_braces)]
        #[inline(always)]
        fn __body<
            __S: ::rumba::kernel::wil::BlockShape,
            __R: ::rumba::kernel::wil::Access,
            __W: ::rumba::kernel::wil::Access,
        >(
            __blk: &::rumba::kernel::wil::BlockCtx<'_, __S>,
            x: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let d = __blk.dynamic_shared::<i32>();
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let sm1 = d
                            .shared_view()
                            .slice_nd(
                                &[
                                    ::rumba::kernel::SliceArg::Range(
                                        ::rumba::kernel::Slice::new(
                                            ::core::option::Option::Some((((-1isize)) as isize)),
                                            ::core::option::Option::None,
                                            (((-2isize)) as isize),
                                        ),
                                    ),
                                ],
                            );
                        for i in (0usize)..(6usize) {
                            d.set(i, 99i32);
                        }
                        for i_2 in (0usize)..(3usize) {
                            sm1.set(i_2, (((i_2) as i32)).wrapping_add(1i32));
                        }
                        for i_3 in (0usize)..(6usize) {
                            x.set(i_3, d.get(i_3));
                        }
                    },
                );
        }
        #[allow(unused, clippy::all)]
        fn __run<__R: ::rumba::kernel::wil::Access, __W: ::rumba::kernel::wil::Access>(
            __launch: &::rumba::driver::HostLaunch<'_>,
        ) -> ::rumba::Result<()> {
            let __args = __launch.args();
            let __cfg = ::rumba::kernel::LaunchConfig::new(
                    __launch.grid(),
                    __launch.block(),
                )
                .with_dynamic_shared_bytes(__launch.dynamic_shared_bytes());
            let x = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &x))
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &x))
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (_, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
