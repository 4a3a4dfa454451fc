// ---- reshape_runtime
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
            a: &::rumba::kernel::GlobalView<'_, f32>,
            __out_out: &::rumba::kernel::wil::OwnOut<'_, f32, __W, 2usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            let out = __out_out.block(__blk);
            if let (::core::option::Option::Some(__win_out),) = (
                __out_out.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let __rumba_tuple: (usize, usize) = (
                                (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                            );
                            let x: usize = __rumba_tuple.0;
                            let y: usize = __rumba_tuple.1;
                            let r: usize = out.shape()[0];
                            let c: usize = out.shape()[1];
                            let m = a.reshape((r, c));
                            if (true && true) {
                                __win_out.set(__tid, (m.get((y, x)) * 2f32));
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let __rumba_tuple: (usize, usize) = (
                                (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                (__bidx.y as usize * __bdim.y as usize + __tid.y as usize),
                            );
                            let x: usize = __rumba_tuple.0;
                            let y: usize = __rumba_tuple.1;
                            let r: usize = out.shape()[0];
                            let c: usize = out.shape()[1];
                            let m = a.reshape((r, c));
                            if ((y < r) && (x < c)) {
                                out.set((y, x), (m.get((y, x)) * 2f32));
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
            let a = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let __out_out = ::rumba::kernel::wil::OwnOut::<
                f32,
                __W,
                2usize,
            >::from_arg(&__args[1usize], 1usize, &__cfg)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &__out_out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &__out_out),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[1usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- reshape_write
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
            a: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let m = a
                            .reshape((
                                ::rumba::kernel::__macro::ty::<usize>(ROWS),
                                ::rumba::kernel::__macro::ty::<usize>(COLS),
                            ));
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
                        if (i
                            < (::rumba::kernel::__macro::ty::<usize>(ROWS))
                                .wrapping_mul(::rumba::kernel::__macro::ty::<usize>(COLS)))
                        {
                            m.set(
                                (
                                    (i / ::rumba::kernel::__macro::ty::<usize>(COLS)),
                                    (i % ::rumba::kernel::__macro::ty::<usize>(COLS)),
                                ),
                                (((i) as i32)).wrapping_mul(10i32),
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
            let a = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &a))
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(__launch.name(), &__cfg, |__blk| __body::<_, __R, __W>(__blk, &a))
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
// ---- reshape_chain
// uses: ["Read", "OwnIndexStore", "ReadWrite"]
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
            a: &::rumba::kernel::GlobalView<'_, u16>,
            __out_flat: &::rumba::kernel::wil::OwnOut<'_, u16, __W, 1usize>,
            sizes: &::rumba::kernel::GlobalView<'_, usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            let flat = __out_flat.block(__blk);
            let sizes = *sizes;
            if let (::core::option::Option::Some(__win_flat),) = (
                __out_flat.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let __rumba_va1: usize = a.shape()[0];
                            let __rumba_va2: usize = a.shape()[1];
                            let a2 = a.reshape((__rumba_va1, __rumba_va2));
                            let __rumba_va3: usize = a2.size();
                            let f = a2.reshape(__rumba_va3);
                            let __rumba_va4: usize = (f.len() / 6usize);
                            let cube = f.reshape((2usize, 3usize, __rumba_va4));
                            if (i < f.len()) {
                                __win_flat.set(__w, f.get(i));
                            }
                            if (i == 0usize) {
                                sizes.set(0usize, cube.shape()[2]);
                                sizes.set(1usize, cube.size());
                                sizes
                                    .set(
                                        2usize,
                                        ((cube.get((1usize, 2usize, 0usize))) as usize),
                                    );
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let __rumba_va1: usize = a.shape()[0];
                            let __rumba_va2: usize = a.shape()[1];
                            let a2 = a.reshape((__rumba_va1, __rumba_va2));
                            let __rumba_va3: usize = a2.size();
                            let f = a2.reshape(__rumba_va3);
                            let __rumba_va4: usize = (f.len() / 6usize);
                            let cube = f.reshape((2usize, 3usize, __rumba_va4));
                            if (i < f.len()) {
                                flat.set(i, f.get(i));
                            }
                            if (i == 0usize) {
                                sizes.set(0usize, cube.shape()[2]);
                                sizes.set(1usize, cube.size());
                                sizes
                                    .set(
                                        2usize,
                                        ((cube.get((1usize, 2usize, 0usize))) as usize),
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
            let a = <::rumba::kernel::Arr<
                u16,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let __out_flat = ::rumba::kernel::wil::OwnOut::<
                u16,
                __W,
                1usize,
            >::from_arg(&__args[1usize], 1usize, &__cfg)?;
            let sizes = <::rumba::kernel::Arr<
                usize,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &__out_flat, &sizes),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, &__out_flat, &sizes),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[1usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- view_bits
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
            x: &::rumba::kernel::GlobalView<'_, f32>,
            __out_bits: &::rumba::kernel::wil::OwnOut<'_, u32, __W, 1usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let bits = __out_bits.block(__blk);
            if let (::core::option::Option::Some(__win_bits),) = (
                __out_bits.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let w = x.view::<u32>();
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i < w.len()) {
                                __win_bits.set(__w, w.get(i));
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let w = x.view::<u32>();
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i < w.len()) {
                                bits.set(i, w.get(i));
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
            let x = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let __out_bits = ::rumba::kernel::wil::OwnOut::<
                u32,
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
                        |__blk| __body::<_, __R, __W>(__blk, &x, &__out_bits),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &__out_bits),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[1usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- view_bytes
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
            x: &::rumba::kernel::GlobalView<'_, u32>,
            lens: &::rumba::kernel::GlobalView<'_, usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let lens = *lens;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let b = x.view::<u8>();
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
                        if (i < x.len()) {
                            b.set(
                                ((4usize).wrapping_mul(i)).wrapping_add(1usize),
                                171u8,
                            );
                        }
                        if (i == 0usize) {
                            lens.set(0usize, b.len());
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
                u32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let lens = <::rumba::kernel::Arr<
                usize,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &lens),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &lens),
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
// ---- view_wider
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
            x: &::rumba::kernel::GlobalView<'_, u8>,
            __out_out: &::rumba::kernel::wil::OwnOut<'_, u16, __W, 1usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let out = __out_out.block(__blk);
            if let (::core::option::Option::Some(__win_out),) = (
                __out_out.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let m = x.reshape((2usize, 4usize));
                            let w = m.view::<u16>();
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i < 4usize) {
                                __win_out.set(__w, w.get(((i / 2usize), (i % 2usize))));
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let m = x.reshape((2usize, 4usize));
                            let w = m.view::<u16>();
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i < 4usize) {
                                out.set(i, w.get(((i / 2usize), (i % 2usize))));
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
            let x = <::rumba::kernel::Arr<
                u8,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let __out_out = ::rumba::kernel::wil::OwnOut::<
                u16,
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
                        |__blk| __body::<_, __R, __W>(__blk, &x, &__out_out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &__out_out),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[1usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- view_bool
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
            raw: &::rumba::kernel::GlobalView<'_, u8>,
            __out_out: &::rumba::kernel::wil::OwnOut<'_, u32, __W, 1usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let raw = *raw;
            let out = __out_out.block(__blk);
            if let (::core::option::Option::Some(__win_out),) = (
                __out_out.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let b = raw.view::<::rumba::kernel::DeviceBool>();
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i < b.len()) {
                                __win_out
                                    .set(
                                        __w,
                                        ((::rumba::kernel::DeviceBool::get(b.get(i))) as u32),
                                    );
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let b = raw.view::<::rumba::kernel::DeviceBool>();
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i < b.len()) {
                                out.set(
                                    i,
                                    ((::rumba::kernel::DeviceBool::get(b.get(i))) as u32),
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
            let raw = <::rumba::kernel::Arr<
                u8,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let __out_out = ::rumba::kernel::wil::OwnOut::<
                u32,
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
                        |__blk| __body::<_, __R, __W>(__blk, &raw, &__out_out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &raw, &__out_out),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[1usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- row_sums
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
            m: &::rumba::kernel::GlobalView<'_, f64>,
            __out_out: &::rumba::kernel::wil::OwnOut<'_, f64, __W, 1usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let m = *m;
            let out = __out_out.block(__blk);
            if let (::core::option::Option::Some(__win_out),) = (
                __out_out.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if true {
                                let r = m.index_axis(0usize, i);
                                let mut s: f64 = 0f64;
                                for j in (0usize)..(r.len()) {
                                    s = (s + r.get(j));
                                }
                                __win_out.set(__w, s);
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i < out.len()) {
                                let r = m.index_axis(0usize, i);
                                let mut s: f64 = 0f64;
                                for j in (0usize)..(r.len()) {
                                    s = (s + r.get(j));
                                }
                                out.set(i, s);
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
            let m = <::rumba::kernel::Arr<
                f64,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let __out_out = ::rumba::kernel::wil::OwnOut::<
                f64,
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
                        |__blk| __body::<_, __R, __W>(__blk, &m, &__out_out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &m, &__out_out),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[1usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- columns
// uses: ["Read", "ReadWrite", "OwnIndexStore", "ReadWrite"]
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
            m: &::rumba::kernel::GlobalView<'_, i32>,
            k: usize,
            __out_col: &::rumba::kernel::wil::OwnOut<'_, i32, __W, 1usize>,
            cube: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let m = *m;
            let col = __out_col.block(__blk);
            let cube = *cube;
            if let (::core::option::Option::Some(__win_col),) = (
                __out_col.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let c = m.index_axis(1usize, k);
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i < c.len()) {
                                __win_col.set(__w, c.get(i));
                            }
                            let plane = cube.index_axis(0usize, 1usize);
                            let line = plane.index_axis(0usize, 0usize);
                            if (i < line.len()) {
                                line.set(i, (((i) as i32)).wrapping_add(100i32));
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let c = m.index_axis(1usize, k);
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i < c.len()) {
                                col.set(i, c.get(i));
                            }
                            let plane = cube.index_axis(0usize, 1usize);
                            let line = plane.index_axis(0usize, 0usize);
                            if (i < line.len()) {
                                line.set(i, (((i) as i32)).wrapping_add(100i32));
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
            let m = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let k: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[1usize],
                1usize,
            )?;
            let __out_col = ::rumba::kernel::wil::OwnOut::<
                i32,
                __W,
                1usize,
            >::from_arg(&__args[2usize], 2usize, &__cfg)?;
            let cube = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[3usize], 3usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &m, k, &__out_col, &cube),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &m, k, &__out_col, &cube),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[2usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- shared_tile
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
            out: &::rumba::kernel::GlobalView<'_, f32>,
            counts: &::rumba::kernel::GlobalView<'_, u32>,
        ) {
            const __BS0: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __BS2: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let out = *out;
            let counts = *counts;
            let s = __blk.shared_array::<f32, 1usize>([64usize]);
            let c = __blk.shared_array::<u32, 2usize>([2usize, 2usize]);
            let __trues1: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        let tile = s.shared_view().reshape((8usize, 8usize));
                        let flat = c.shared_view().reshape(4usize);
                        if (tid < 4usize) {
                            flat.set(tid, 0u32);
                        }
                        tile.set(((tid / 8usize), (tid % 8usize)), ((tid) as f32));
                    },
                );
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            let __trues3: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        let flat = c.shared_view().reshape(4usize);
                        flat.atomic_add((tid % 4usize), 1u32);
                        out.set(
                            tid,
                            s
                                .get(
                                    (((tid % 8usize)).wrapping_mul(8usize))
                                        .wrapping_add((tid / 8usize)),
                                ),
                        );
                    },
                );
            let _ = match __blk.barrier(&__BS2, __trues3) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            __blk
                .each_x(
                    0i128,
                    ((4usize) as i128),
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        if (tid < 4usize) {
                            counts.set(tid, c.get(((tid / 2usize), (tid % 2usize))));
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
                f32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let counts = <::rumba::kernel::Arr<
                u32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out, &counts),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out, &counts),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out, &counts),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &out, &counts),
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
// ---- local_bytes
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
            out: &::rumba::kernel::GlobalView<'_, u8>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let out = *out;
            let __loc_l = __blk.local_arrays::<u32, 1usize>([2usize]);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let l = __loc_l.of(__w);
                        l.zero();
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
                        l.set(0usize, 67305985u32);
                        l.set(1usize, ((i) as u32));
                        let b = l.local_view().view::<u8>();
                        for k in (0usize)..(8usize) {
                            out.set((i, k), b.get(k));
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
                u8,
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
// ---- bad_reshape
// uses: ["Read", "ReadWrite", "ReadWrite"]
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
            a: &::rumba::kernel::GlobalView<'_, f32>,
            n: usize,
            out: &::rumba::kernel::GlobalView<'_, f32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a = *a;
            let out = *out;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let m = a.reshape((n, 3usize));
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            out.set(0usize, m.get((0usize, 0usize)));
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
            let a = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let n: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[1usize],
                1usize,
            )?;
            let out = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, n, &out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a, n, &out),
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
// ---- bad_row
// uses: ["Read", "ReadWrite", "ReadWrite"]
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
            m: &::rumba::kernel::GlobalView<'_, i32>,
            k: usize,
            out: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let m = *m;
            let out = *out;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let r = m.index_axis(0usize, k);
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            out.set(0usize, r.get(0usize));
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
            let m = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let k: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[1usize],
                1usize,
            )?;
            let out = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &m, k, &out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &m, k, &out),
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
// ---- bad_view
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
            x: &::rumba::kernel::GlobalView<'_, u8>,
            out: &::rumba::kernel::GlobalView<'_, u32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let out = *out;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let w = x.view::<u32>();
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            out.set(0usize, ((w.len()) as u32));
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
                u8,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let out = <::rumba::kernel::Arr<
                u32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &out),
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
// ---- views_across_barriers
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
            m: &::rumba::kernel::GlobalView<'_, f32>,
            __out_out: &::rumba::kernel::wil::OwnOut<'_, f32, __W, 1usize>,
        ) {
            const __BS0: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __DS3: ::rumba::kernel::wil::DecisionSite = ::rumba::kernel::wil::DecisionSite::new(
                "the bounds of this `for`",
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __BS4: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let m = *m;
            let out = __out_out.block(__blk);
            let s = __blk.shared_array::<f32, 1usize>([64usize]);
            let __ctx_acc = __blk.context::<f32>();
            let __trues1: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        let __rumba_va4: usize = (tid / 8usize);
                        let tile = s.shared_view().reshape((8usize, 8usize));
                        let __rumba_va3: usize = (((__bidx).x) as usize);
                        let src = m.index_axis(0usize, __rumba_va3);
                        let line = tile.index_axis(0usize, __rumba_va4);
                        line.set((tid % 8usize), src.get(tid));
                    },
                );
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            let mut __bounds2 = ::rumba::kernel::wil::Decision::<(usize, usize)>::new();
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let tid: usize = (((__tid).x) as usize);
                        let __rumba_va5: usize = (tid % 8usize);
                        let mut acc: f32 = __ctx_acc.get(__w as usize);
                        let tile = s.shared_view().reshape((8usize, 8usize));
                        let col = tile.index_axis(1usize, __rumba_va5);
                        acc = 0f32;
                        __bounds2.see(__w, (0usize, col.len()));
                        __ctx_acc.set(__w as usize, acc);
                    },
                );
            let (__bounds2_0, __bounds2_1) = match __blk.uniform(__bounds2, &__DS3) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            for k in (__bounds2_0)..(__bounds2_1) {
                let __trues5: u32 = 0;
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let tid: usize = (((__tid).x) as usize);
                            let __rumba_va4: usize = (tid / 8usize);
                            let __rumba_va5: usize = (tid % 8usize);
                            let mut acc: f32 = __ctx_acc.get(__w as usize);
                            let tile = s.shared_view().reshape((8usize, 8usize));
                            let line = tile.index_axis(0usize, __rumba_va4);
                            let col = tile.index_axis(1usize, __rumba_va5);
                            acc = (acc + (line.get(k) * col.get(k)));
                            __ctx_acc.set(__w as usize, acc);
                        },
                    );
                let _ = match __blk.barrier(&__BS4, __trues5) {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => return,
                };
            }
            if let (::core::option::Option::Some(__win_out),) = (
                __out_out.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let mut acc: f32 = __ctx_acc.get(__w as usize);
                            __win_out.set(__w, acc);
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let mut acc: f32 = __ctx_acc.get(__w as usize);
                            out.set(
                                (__bidx.x as usize * __bdim.x as usize + __tid.x as usize),
                                acc,
                            );
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
            let m = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let __out_out = ::rumba::kernel::wil::OwnOut::<
                f32,
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
                        |__blk| __body::<_, __R, __W>(__blk, &m, &__out_out),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &m, &__out_out),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &m, &__out_out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &m, &__out_out),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[1usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- views_kept_across_barriers
// uses: ["Read", "Read", "OwnIndexStore", "ReadWrite"]
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
            m: &::rumba::kernel::GlobalView<'_, i32>,
            pick: &::rumba::kernel::wil::GlobalIn<'_, u32, 1usize, __R>,
            __out_out: &::rumba::kernel::wil::OwnOut<'_, i32, __W, 1usize>,
            bytes: &::rumba::kernel::GlobalView<'_, u8>,
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
            let m = *m;
            let pick = *pick;
            let out = __out_out.block(__blk);
            let bytes = *bytes;
            let __loc_l = __blk.local_arrays::<u32, 1usize>([1usize]);
            let dynamic = __blk.dynamic_shared::<i32>();
            let __ctx_j = __blk.context::<usize>();
            let __ctx___rumba_va5 = __blk.context::<usize>();
            let n: usize = (((__bdim).x) as usize);
            let __trues1: u32 = 0;
            if let (::core::option::Option::Some(__win_pick),) = (
                pick.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let tid: usize = (((__tid).x) as usize);
                            let mut j: usize = __ctx_j.get(__w as usize);
                            let mut __rumba_va5: usize = __ctx___rumba_va5
                                .get(__w as usize);
                            let l = __loc_l.of(__w);
                            j = ((__win_pick.at(__w)) as usize);
                            __rumba_va5 = j;
                            let r = m.index_axis(0usize, __rumba_va5);
                            j = 0usize;
                            l.zero();
                            l.set(0usize, (168496141u32 ^ ((i) as u32)));
                            let b = l.local_view().view::<u8>();
                            let pairs = dynamic.shared_view().reshape((n, 2usize));
                            pairs.set((tid, 0usize), ((i) as i32));
                            pairs.set((tid, 1usize), (((i) as i32)).wrapping_neg());
                            __ctx_j.set(__w as usize, j);
                            __ctx___rumba_va5.set(__w as usize, __rumba_va5);
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let tid: usize = (((__tid).x) as usize);
                            let mut j: usize = __ctx_j.get(__w as usize);
                            let mut __rumba_va5: usize = __ctx___rumba_va5
                                .get(__w as usize);
                            let l = __loc_l.of(__w);
                            j = ((pick.get(i)) as usize);
                            __rumba_va5 = j;
                            let r = m.index_axis(0usize, __rumba_va5);
                            j = 0usize;
                            l.zero();
                            l.set(0usize, (168496141u32 ^ ((i) as u32)));
                            let b = l.local_view().view::<u8>();
                            let pairs = dynamic.shared_view().reshape((n, 2usize));
                            pairs.set((tid, 0usize), ((i) as i32));
                            pairs.set((tid, 1usize), (((i) as i32)).wrapping_neg());
                            __ctx_j.set(__w as usize, j);
                            __ctx___rumba_va5.set(__w as usize, __rumba_va5);
                        },
                    );
            }
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            if let (::core::option::Option::Some(__win_out),) = (
                __out_out.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let tid: usize = (((__tid).x) as usize);
                            let mut j: usize = __ctx_j.get(__w as usize);
                            let mut __rumba_va5: usize = __ctx___rumba_va5
                                .get(__w as usize);
                            let l = __loc_l.of(__w);
                            let r = m.index_axis(0usize, __rumba_va5);
                            let b = l.local_view().view::<u8>();
                            let pairs = dynamic.shared_view().reshape((n, 2usize));
                            let back = pairs.index_axis(1usize, 1usize);
                            __win_out
                                .set(
                                    __w,
                                    ((((r.get(0usize)).wrapping_mul(100i32))
                                        .wrapping_add(r.get(1usize)))
                                        .wrapping_add(((j) as i32)))
                                        .wrapping_add(
                                            back.get(((n).wrapping_sub(1usize)).wrapping_sub(tid)),
                                        ),
                                );
                            for k in (0usize)..(b.len()) {
                                bytes.set((i, k), b.get(k));
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let tid: usize = (((__tid).x) as usize);
                            let mut j: usize = __ctx_j.get(__w as usize);
                            let mut __rumba_va5: usize = __ctx___rumba_va5
                                .get(__w as usize);
                            let l = __loc_l.of(__w);
                            let r = m.index_axis(0usize, __rumba_va5);
                            let b = l.local_view().view::<u8>();
                            let pairs = dynamic.shared_view().reshape((n, 2usize));
                            let back = pairs.index_axis(1usize, 1usize);
                            out.set(
                                i,
                                ((((r.get(0usize)).wrapping_mul(100i32))
                                    .wrapping_add(r.get(1usize)))
                                    .wrapping_add(((j) as i32)))
                                    .wrapping_add(
                                        back.get(((n).wrapping_sub(1usize)).wrapping_sub(tid)),
                                    ),
                            );
                            for k in (0usize)..(b.len()) {
                                bytes.set((i, k), b.get(k));
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
            let m = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let pick = ::rumba::kernel::wil::GlobalIn::<
                u32,
                1usize,
                __R,
            >::from_arg(&__args[1usize], 1usize)?;
            let __out_out = ::rumba::kernel::wil::OwnOut::<
                i32,
                __W,
                1usize,
            >::from_arg(&__args[2usize], 2usize, &__cfg)?;
            let bytes = <::rumba::kernel::Arr<
                u8,
            > as ::rumba::kernel::Param>::view(&__args[3usize], 3usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &m, &pick, &__out_out, &bytes),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &m, &pick, &__out_out, &bytes),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &m, &pick, &__out_out, &bytes),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<
                            _,
                            __R,
                            __W,
                        >(__blk, &m, &pick, &__out_out, &bytes),
                    )
                }
            }
        }
        let __cfg = ::rumba::kernel::LaunchConfig::new(
            __launch.grid(),
            __launch.block(),
        );
        match (
            ::rumba::kernel::__macro::frozen_all(__launch.args(), &[1usize]),
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[2usize], &__cfg),
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
// ---- bad_row_per_thread
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
            m: &::rumba::kernel::GlobalView<'_, i32>,
            __out_out: &::rumba::kernel::wil::OwnOut<'_, i32, __W, 1usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let m = *m;
            let out = __out_out.block(__blk);
            if let (::core::option::Option::Some(__win_out),) = (
                __out_out.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let r = m.index_axis(0usize, i);
                            if true {
                                __win_out.set(__w, r.get(0usize));
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            let r = m.index_axis(0usize, i);
                            if (i < out.len()) {
                                out.set(i, r.get(0usize));
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
            let m = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let __out_out = ::rumba::kernel::wil::OwnOut::<
                i32,
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
                        |__blk| __body::<_, __R, __W>(__blk, &m, &__out_out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &m, &__out_out),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[1usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- const_table_rows
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
            lut: &::rumba::kernel::GlobalView<'_, u16>,
            __out_out: &::rumba::kernel::wil::OwnOut<'_, u32, __W, 1usize>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let lut = *lut;
            let out = __out_out.block(__blk);
            if let (::core::option::Option::Some(__win_out),) = (
                __out_out.own_window(__blk),
            ) {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let table = lut.reshape((3usize, 4usize));
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if true {
                                let __rumba_va3: usize = (i % 3usize);
                                let r = table.index_axis(0usize, __rumba_va3);
                                let mut s: u32 = 0u32;
                                for k in (0usize)..(r.len()) {
                                    s = (s).wrapping_add(((r.get(k)) as u32));
                                }
                                __win_out.set(__w, s);
                            }
                        },
                    );
            } else {
                __blk
                    .each(
                        #[inline(always)]
                        |__w: u32, __tid: ::rumba::kernel::Dim3| {
                            let table = lut.reshape((3usize, 4usize));
                            let i: usize = (__bidx.x as usize * __bdim.x as usize
                                + __tid.x as usize);
                            if (i < out.len()) {
                                let __rumba_va3: usize = (i % 3usize);
                                let r = table.index_axis(0usize, __rumba_va3);
                                let mut s: u32 = 0u32;
                                for k in (0usize)..(r.len()) {
                                    s = (s).wrapping_add(((r.get(k)) as u32));
                                }
                                out.set(i, s);
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
            let lut = <::rumba::kernel::ConstArr<
                u16,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let __out_out = ::rumba::kernel::wil::OwnOut::<
                u32,
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
                        |__blk| __body::<_, __R, __W>(__blk, &lut, &__out_out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &lut, &__out_out),
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
            ::rumba::kernel::__macro::exclusive_all(__launch.args(), &[1usize], &__cfg),
        ) {
            (_, true) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Plain,
                >(__launch)
            }
            (_, false) => {
                __run::<
                    ::rumba::kernel::wil::Atomic,
                    ::rumba::kernel::wil::Atomic,
                >(__launch)
            }
        }
    };
}
// ---- numba_array_reshape1d
// uses: ["Read", "ReadWrite", "ReadWrite"]
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
            arr: &::rumba::kernel::GlobalView<'_, i64>,
            n: usize,
            got: &::rumba::kernel::GlobalView<'_, i64>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let arr = *arr;
            let got = *got;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let y = arr.reshape(n);
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            for i in (0usize)..(y.shape()[0]) {
                                got.set(i, y.get(i));
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
            let arr = <::rumba::kernel::Arr<
                i64,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let n: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[1usize],
                1usize,
            )?;
            let got = <::rumba::kernel::Arr<
                i64,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &arr, n, &got),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &arr, n, &got),
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
// ---- numba_array_reshape2d
// uses: ["Read", "ReadWrite", "ReadWrite", "ReadWrite"]
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
            arr: &::rumba::kernel::GlobalView<'_, i64>,
            d0: usize,
            d1: usize,
            got: &::rumba::kernel::GlobalView<'_, i64>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let arr = *arr;
            let got = *got;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let y = arr.reshape((d0, d1));
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            for i in (0usize)..(y.shape()[0]) {
                                for j in (0usize)..(y.shape()[1]) {
                                    got.set((i, j), y.get((i, j)));
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
            let arr = <::rumba::kernel::Arr<
                i64,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let d0: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[1usize],
                1usize,
            )?;
            let d1: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[2usize],
                2usize,
            )?;
            let got = <::rumba::kernel::Arr<
                i64,
            > as ::rumba::kernel::Param>::view(&__args[3usize], 3usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &arr, d0, d1, &got),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &arr, d0, d1, &got),
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
// ---- numba_array_reshape3d
// uses: ["Read", "ReadWrite", "ReadWrite", "ReadWrite", "ReadWrite"]
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
            arr: &::rumba::kernel::GlobalView<'_, i64>,
            d0: usize,
            d1: usize,
            d2: usize,
            got: &::rumba::kernel::GlobalView<'_, i64>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let arr = *arr;
            let got = *got;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let y = arr.reshape((d0, d1, d2));
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            for i in (0usize)..(y.shape()[0]) {
                                for j in (0usize)..(y.shape()[1]) {
                                    for k in (0usize)..(y.shape()[2]) {
                                        got.set((i, j, k), y.get((i, j, k)));
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
            let arr = <::rumba::kernel::Arr<
                i64,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let d0: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[1usize],
                1usize,
            )?;
            let d1: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[2usize],
                2usize,
            )?;
            let d2: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[3usize],
                3usize,
            )?;
            let got = <::rumba::kernel::Arr<
                i64,
            > as ::rumba::kernel::Param>::view(&__args[4usize], 4usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &arr, d0, d1, d2, &got),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &arr, d0, d1, d2, &got),
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
// ---- numba_reinterpret_array_type
// uses: ["Read", "ReadWrite", "ReadWrite"]
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
            byte_arr: &::rumba::kernel::GlobalView<'_, u8>,
            start: usize,
            output: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let byte_arr = *byte_arr;
            let output = *output;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let __rumba_va1: usize = (byte_arr.len() / 4usize);
                        let words = byte_arr.reshape((__rumba_va1, 4usize));
                        let __rumba_va2: usize = (start / 4usize);
                        let bytes = words.index_axis(0usize, __rumba_va2);
                        let val = bytes.view::<i32>();
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            output.set(0usize, val.get(0usize));
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
            let byte_arr = <::rumba::kernel::Arr<
                u8,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let start: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[1usize],
                1usize,
            )?;
            let output = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[2usize], 2usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &byte_arr, start, &output),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &byte_arr, start, &output),
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
// ---- numba_carray
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
            a_ptr: &::rumba::kernel::GlobalView<'_, u8>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let a_ptr = *a_ptr;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let floats = a_ptr.view::<f32>();
                        let a = floats.reshape(1usize);
                        if ((__bidx.x as usize * __bdim.x as usize + __tid.x as usize)
                            == 0usize)
                        {
                            {
                                let __rumba_i = 0usize;
                                let __rumba_v: f32 = 1.2f32;
                                a.set(__rumba_i, (a.get(__rumba_i) + __rumba_v));
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
            let a_ptr = <::rumba::kernel::Arr<
                u8,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a_ptr),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &a_ptr),
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
// ---- numba_slice_as_arg
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
            inp: &::rumba::kernel::GlobalView<'_, i32>,
            out: &::rumba::kernel::GlobalView<'_, i32>,
        ) {
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let inp = *inp;
            let out = *out;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let i: usize = (__bidx.x as usize * __bdim.x as usize
                            + __tid.x as usize);
                        let src = inp.index_axis(0usize, i);
                        let dst = out.index_axis(0usize, i);
                        for k in (0usize)..(dst.shape()[0]) {
                            dst.set(k, src.get(k));
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
            let inp = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[0usize], 0usize)?;
            let out = <::rumba::kernel::Arr<
                i32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &inp, &out),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &inp, &out),
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
