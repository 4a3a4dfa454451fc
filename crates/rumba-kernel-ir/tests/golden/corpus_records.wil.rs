// ---- set_a
// uses: ["ReadWrite", "ReadWrite", "ReadWrite"]
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
            ary: &::rumba::kernel::GlobalView<'_, Rec>,
            i: usize,
            v: f64,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let ary = *ary;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            ::rumba::kernel::__macro::field_view(
                                    &ary,
                                    |__rumba_r| &__rumba_r.a,
                                )
                                .set(i, v);
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
            let ary = <::rumba::kernel::Arr<
                Rec,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let i: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[1usize],
                1usize,
            )?;
            let v: f64 = <f64 as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary, i, v),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary, i, v),
                    )
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
// ---- set_b
// uses: ["ReadWrite", "ReadWrite", "ReadWrite"]
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
            ary: &::rumba::kernel::GlobalView<'_, Rec>,
            i: usize,
            v: i32,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let ary = *ary;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            ::rumba::kernel::__macro::field_view(
                                    &ary,
                                    |__rumba_r| &__rumba_r.b,
                                )
                                .set(i, v);
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
            let ary = <::rumba::kernel::Arr<
                Rec,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let i: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[1usize],
                1usize,
            )?;
            let v: i32 = <i32 as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary, i, v),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary, i, v),
                    )
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
// ---- set_record
// uses: ["ReadWrite", "ReadWrite", "ReadWrite"]
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
            ary: &::rumba::kernel::GlobalView<'_, Rec>,
            i: usize,
            j: usize,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let ary = *ary;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            ary.set(i, ary.get(j));
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
            let ary = <::rumba::kernel::Arr<
                Rec,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let i: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[1usize],
                1usize,
            )?;
            let j: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[2usize],
                2usize,
            )?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary, i, j),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary, i, j),
                    )
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
// ---- fields_per_thread
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
            ary: &::rumba::kernel::GlobalView<'_, Rec>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let ary = *ary;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
                        let k: usize = (i / 3usize);
                        if (k < ary.len()) {
                            if ((i % 3usize) == 0usize) {
                                ::rumba::kernel::__macro::field_view(
                                        &ary,
                                        |__rumba_r| &__rumba_r.a,
                                    )
                                    .set(k, 0.1);
                            } else {
                                if ((i % 3usize) == 1usize) {
                                    ::rumba::kernel::__macro::field_view(
                                            &ary,
                                            |__rumba_r| &__rumba_r.b,
                                        )
                                        .set(k, (-3));
                                } else {
                                    {
                                        let __rumba_f = ::rumba::kernel::__macro::field_view(
                                            &ary,
                                            |__rumba_r| &__rumba_r.c,
                                        );
                                        let __rumba_i = k;
                                        let __rumba_v: u32 = ((k) as u32);
                                        __rumba_f
                                            .set(
                                                __rumba_i,
                                                (__rumba_f.get(__rumba_i)).wrapping_add(__rumba_v),
                                            );
                                    }
                                }
                            }
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
            let ary = <::rumba::kernel::Arr<
                Rec,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary),
                    )
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
// ---- records_as_values
// uses: ["ReadWrite", "ReadWrite", "ReadWrite"]
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
            out: &::rumba::kernel::GlobalView<'_, Rec>,
            v: f64,
            got: &::rumba::kernel::GlobalView<'_, f64>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let out = *out;
            let got = *got;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            let mut r: Rec = Rec { a: 1.5, b: 7, c: 9 };
                            r.a = v;
                            out.set(0usize, r);
                            out.set(
                                1usize,
                                ::rumba::kernel::__macro::ty::<Rec>(bumped(r, 100i32)),
                            );
                            out.set(2usize, Rec { c: 2, b: (-1), a: (-2.5) });
                            let s: Rec = out.get(1usize);
                            got.set(0usize, ::rumba::kernel::__macro::ty::<f64>((s).a));
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
            let out = <::rumba::kernel::Arr<
                Rec,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let v: f64 = <f64 as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            let got = <::rumba::kernel::Arr<
                f64,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out, v, &got),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out, v, &got),
                    )
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
// ---- record_write_array
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
            ary: &::rumba::kernel::GlobalView<'_, WithArray>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let ary = *ary;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            ::rumba::kernel::__macro::field_view(
                                    &ary,
                                    |__rumba_r| &__rumba_r.g,
                                )
                                .set(0usize, 2);
                            ::rumba::kernel::__macro::subarray_view(
                                    &ary,
                                    |__rumba_r| &__rumba_r.h,
                                )
                                .set((0usize, 0usize), 3.0);
                            ::rumba::kernel::__macro::subarray_view(
                                    &ary,
                                    |__rumba_r| &__rumba_r.h,
                                )
                                .set((0usize, 1usize), 4.0);
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
            let ary = <::rumba::kernel::Arr<
                WithArray,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary),
                    )
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
// ---- record_read_array
// uses: ["Read", "ReadWrite"]
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
            ary: &::rumba::kernel::wil::GlobalIn<'_, WithArray, 1usize, __R>,
            out: &::rumba::kernel::GlobalView<'_, f32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let ary = *ary;
            let out = *out;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            out.set(
                                0usize,
                                ::rumba::kernel::__macro::ty::<
                                    f32,
                                >((ary.get(0usize)).h[0usize]),
                            );
                            out.set(
                                1usize,
                                ::rumba::kernel::__macro::ty::<
                                    f32,
                                >((ary.get(0usize)).h[1usize]),
                            );
                            let mut r: WithArray = ary.get(0usize);
                            r.h[1usize] = (::rumba::kernel::__macro::ty::<
                                f32,
                            >((r).h[0usize]) * 10f32);
                            out.set(
                                2usize,
                                ::rumba::kernel::__macro::ty::<f32>((r).h[1usize]),
                            );
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
            let ary = ::rumba::kernel::wil::GlobalIn::<
                WithArray,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let out = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary, &out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary, &out),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[0usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[], &__cfg),
        ) {
            (true, _) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
            (false, _) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- sub_index_oob
// uses: ["ReadWrite", "ReadWrite"]
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
            ary: &::rumba::kernel::GlobalView<'_, WithArray>,
            k: usize,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let ary = *ary;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            ::rumba::kernel::__macro::subarray_view(
                                    &ary,
                                    |__rumba_r| &__rumba_r.h,
                                )
                                .set((0usize, k), 1.0);
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
            let ary = <::rumba::kernel::Arr<
                WithArray,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let k: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[1usize],
                1usize,
            )?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary, k),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary, k),
                    )
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
// ---- set_charseq
// uses: ["ReadWrite", "ReadWrite"]
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
            ary: &::rumba::kernel::GlobalView<'_, WithChars>,
            i: usize,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let ary = *ary;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            ::rumba::kernel::__macro::field_view(
                                    &ary,
                                    |__rumba_r| &__rumba_r.n,
                                )
                                .set(i, ::rumba::kernel::__macro::bytes(b"abc"));
                            ::rumba::kernel::__macro::field_view(
                                    &ary,
                                    |__rumba_r| &__rumba_r.m,
                                )
                                .set(i, 5);
                            ::rumba::kernel::__macro::field_view(
                                    &ary,
                                    |__rumba_r| &__rumba_r.n,
                                )
                                .set(
                                    (i).wrapping_add(1usize),
                                    ::rumba::kernel::__macro::bytes(b"wxyz"),
                                );
                            ::rumba::kernel::__macro::subarray_view(
                                    &ary,
                                    |__rumba_r| &__rumba_r.n,
                                )
                                .set(((i).wrapping_add(1usize), 0usize), 86);
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
            let ary = <::rumba::kernel::Arr<
                WithChars,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let i: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[1usize],
                1usize,
            )?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary, i),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary, i),
                    )
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
// ---- get_charseq
// uses: ["Read", "OwnIndexStore"]
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
            ary: &::rumba::kernel::wil::GlobalIn<'_, WithChars, 1usize, __R>,
            __out_out: &::rumba::kernel::wil::OwnOut<'_, u8, __W, 1usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let ary = *ary;
            let out = __out_out.block(__blk);
            if let (::core::option::Option::Some(__win_out),) = (
                __out_out.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let k: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (k < 4usize) {
                                __win_out
                                    .set(
                                        __w,
                                        ::rumba::kernel::__macro::ty::<u8>((ary.get(0usize)).n[k]),
                                    );
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let k: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (k < 4usize) {
                                out.set(
                                    k,
                                    ::rumba::kernel::__macro::ty::<u8>((ary.get(0usize)).n[k]),
                                );
                            }
                        },
                    );
            }
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
            let ary = ::rumba::kernel::wil::GlobalIn::<
                WithChars,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let __out_out = ::rumba::kernel::wil::OwnOut::<
                u8,
                __W,
                1usize,
            >::from_arg(&__args[1usize], 1usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary, &__out_out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &ary, &__out_out),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[0usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[1usize], &__cfg),
        ) {
            (true, true) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (true, false) => {
                __run::<
                    ::rumba::kernel::wil::Plain,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
            (false, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (false, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- shared_records
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
            out: &::rumba::kernel::GlobalView<'_, Rec>,
        ) {
            const __BS0: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let out = *out;
            let s = __blk.shared_array::<Rec, 1usize>([8usize]);
            let __trues1: u32 = 0;
            __blk
                .each_x(
                    0i128,
                    ((8usize) as i128),
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        if (tid < 8usize) {
                            s.set(tid, Rec { a: 0.0, b: 0, c: 0 });
                            ::rumba::kernel::__macro::field_view(
                                    &s.shared_view(),
                                    |__rumba_r| &__rumba_r.b,
                                )
                                .set(tid, ((tid) as i32));
                            ::rumba::kernel::__macro::field_view(
                                    &s.shared_view(),
                                    |__rumba_r| &__rumba_r.a,
                                )
                                .set(tid, 0.5);
                        }
                    },
                );
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            __blk
                .each_x(
                    0i128,
                    ((8usize) as i128),
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        if (tid < 8usize) {
                            out.set(tid, s.get((7usize).wrapping_sub(tid)));
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
            let out = <::rumba::kernel::Arr<
                Rec,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out),
                    )
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
