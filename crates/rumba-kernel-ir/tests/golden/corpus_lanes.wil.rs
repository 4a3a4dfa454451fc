// ---- lane_loops
// uses: ["Read", "ReadWrite", "ReadWrite", "ReadWrite", "ReadWrite", "ReadWrite"]
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
            x: &::rumba::kernel::wil::GlobalIn<'_, f32, 1usize, __R>,
            out: &::rumba::kernel::GlobalView<'_, f32>,
            m: usize,
            wrap: usize,
            span: usize,
            skip: u32,
        ) {
            const __BS0: ::rumba::kernel::wil::BarrierSite = ::rumba::kernel::wil::BarrierSite::new(
                ::rumba::kernel::wil::BarrierKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __WS2: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __WS3: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __WS6: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __WS8: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let out = *out;
            let s = __blk.shared_array::<f32, 1usize>([64usize]);
            let __ctx_a = __blk.context::<f32>();
            let __ctx_b = __blk.context::<i32>();
            let __ctx_odd = __blk.context::<u8>();
            let __ctx_c = __blk.context::<f32>();
            let n: usize = ((((__bdim).x).wrapping_mul((__bdim).y)) as usize);
            let __trues1: u32 = 0;
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((((__tid).y) as usize))
                            .wrapping_mul((((__bdim).x) as usize)))
                            .wrapping_add((((__tid).x) as usize));
                        let mut j: usize = lin;
                        while (j < 64usize) {
                            s.set(j, x.get(j));
                            j = (j).wrapping_add(n);
                        }
                    },
                );
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((((__tid).y) as usize))
                            .wrapping_mul((((__bdim).x) as usize)))
                            .wrapping_add((((__tid).x) as usize));
                        let mut a: f32 = __ctx_a.get(__w as usize);
                        let mut b: i32 = __ctx_b.get(__w as usize);
                        let mut odd: bool = __ctx_odd.get(__w as usize) != 0;
                        let mut c: f32 = __ctx_c.get(__w as usize);
                        a = x.get((64usize).wrapping_add((lin % 16usize)));
                        b = (((lin) as i32)).wrapping_sub(7i32);
                        odd = ((lin % 2usize) == 1usize);
                        c = 0f32;
                        if (((lin) as u32) == skip) {
                            {
                                __blk.exit(__w);
                                return;
                            }
                        }
                        __ctx_a.set(__w as usize, a);
                        __ctx_b.set(__w as usize, b);
                        __ctx_odd.set(__w as usize, odd as u8);
                        __ctx_c.set(__w as usize, c);
                    },
                );
            if __blk.all_exited() {
                return;
            }
            __blk.warp_sync(&__WS2, 4294967295u32);
            __blk
                .each_lanes::<
                    16,
                    _,
                    _,
                >(
                    #[inline(always)]
                    |__w0: u32, __n: usize| {
                        let __n = __n.min(16);
                        let last: usize = <usize>::wrapping_sub(m, 1usize);
                        let mut __lanes_odd: [bool; 16] = [<bool as ::core::default::Default>::default(); 16];
                        let mut __lanes_a: [f32; 16] = [<f32 as ::core::default::Default>::default(); 16];
                        let mut __lanes_b: [i32; 16] = [<i32 as ::core::default::Default>::default(); 16];
                        for __l in 0..__n {
                            __lanes_odd[__l] = __ctx_odd.get(__w0 as usize + __l) != 0;
                            __lanes_a[__l] = __ctx_a.get(__w0 as usize + __l);
                            __lanes_b[__l] = __ctx_b.get(__w0 as usize + __l);
                        }
                        for k in (0usize)..(m) {
                            let __read4: f32 = s.get((k % wrap));
                            let __read5: f32 = x.get(((k).wrapping_mul(3usize) % span));
                            for __l in 0..__n {
                                let mut odd: bool = __lanes_odd[__l];
                                let mut a: f32 = __lanes_a[__l];
                                let mut b: i32 = __lanes_b[__l];
                                let v: f32 = ((__read4 * 0.5f32) + __read5);
                                let w: f32 = (if odd { v } else { (-v) });
                                a = <f32>::mul_add(a, 0.75f32, w);
                                b = ((<i32>::wrapping_mul(b, 3i32))
                                    .wrapping_add((((k) as i32) / 3i32)))
                                    .wrapping_sub((b).wrapping_shr((2i32) as u32));
                                odd = (((b & 4i32) != 0i32) || (a < 0f32));
                                a = ((a + (((last) as f32) * 0.001f32))
                                    + (<f32>::sqrt(((k) as f32)) / (1f32 + <f32>::abs(a))));
                                __lanes_a[__l] = a;
                                __lanes_b[__l] = b;
                                __lanes_odd[__l] = odd;
                            }
                        }
                        for __l in 0..__n {
                            __ctx_a.set(__w0 as usize + __l, __lanes_a[__l]);
                            __ctx_b.set(__w0 as usize + __l, __lanes_b[__l]);
                            __ctx_odd.set(__w0 as usize + __l, __lanes_odd[__l] as u8);
                        }
                    },
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let mut a: f32 = __ctx_a.get(__w as usize);
                        let mut b: i32 = __ctx_b.get(__w as usize);
                        let mut odd: bool = __ctx_odd.get(__w as usize) != 0;
                        let last: usize = <usize>::wrapping_sub(m, 1usize);
                        for k in (0usize)..(m) {
                            let v: f32 = ((s.get((k % wrap)) * 0.5f32)
                                + x.get(((k).wrapping_mul(3usize) % span)));
                            let w: f32 = (if odd { v } else { (-v) });
                            a = <f32>::mul_add(a, 0.75f32, w);
                            b = ((<i32>::wrapping_mul(b, 3i32))
                                .wrapping_add((((k) as i32) / 3i32)))
                                .wrapping_sub((b).wrapping_shr((2i32) as u32));
                            odd = (((b & 4i32) != 0i32) || (a < 0f32));
                            a = ((a + (((last) as f32) * 0.001f32))
                                + (<f32>::sqrt(((k) as f32)) / (1f32 + <f32>::abs(a))));
                        }
                        __ctx_a.set(__w as usize, a);
                        __ctx_b.set(__w as usize, b);
                        __ctx_odd.set(__w as usize, odd as u8);
                    },
                );
            __blk.warp_sync(&__WS3, 4294967295u32);
            __blk
                .each_lanes::<
                    16,
                    _,
                    _,
                >(
                    #[inline(always)]
                    |__w0: u32, __n: usize| {
                        let __n = __n.min(16);
                        let stride: usize = ((m / 4usize)).wrapping_add(1usize);
                        let mut __lanes_a: [f32; 16] = [<f32 as ::core::default::Default>::default(); 16];
                        let mut __lanes_b: [i32; 16] = [<i32 as ::core::default::Default>::default(); 16];
                        let mut __lanes_c: [f32; 16] = [<f32 as ::core::default::Default>::default(); 16];
                        for __l in 0..__n {
                            __lanes_a[__l] = __ctx_a.get(__w0 as usize + __l);
                            __lanes_b[__l] = __ctx_b.get(__w0 as usize + __l);
                            __lanes_c[__l] = __ctx_c.get(__w0 as usize + __l);
                        }
                        for k_2 in ((1usize)..=(m)).step_by(stride) {
                            let __read7: f32 = x.get((k_2 % 64usize));
                            for __l in 0..__n {
                                let mut a: f32 = __lanes_a[__l];
                                let mut b: i32 = __lanes_b[__l];
                                let mut c: f32 = __lanes_c[__l];
                                c = (c
                                    + ((__read7 * a)
                                        - (<f32 as ::rumba::kernel::math::Real>::ln_1p(
                                            ((k_2) as f32),
                                        ) * ((b) as f32))));
                                __lanes_c[__l] = c;
                            }
                        }
                        for __l in 0..__n {
                            __ctx_c.set(__w0 as usize + __l, __lanes_c[__l]);
                        }
                    },
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let stride: usize = ((m / 4usize)).wrapping_add(1usize);
                        let mut a: f32 = __ctx_a.get(__w as usize);
                        let mut b: i32 = __ctx_b.get(__w as usize);
                        let mut c: f32 = __ctx_c.get(__w as usize);
                        for k_2 in ((1usize)..=(m)).step_by(stride) {
                            c = (c
                                + ((x.get((k_2 % 64usize)) * a)
                                    - (<f32 as ::rumba::kernel::math::Real>::ln_1p(
                                        ((k_2) as f32),
                                    ) * ((b) as f32))));
                        }
                        __ctx_c.set(__w as usize, c);
                    },
                );
            __blk.warp_sync(&__WS6, 4294967295u32);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((((__tid).y) as usize))
                            .wrapping_mul((((__bdim).x) as usize)))
                            .wrapping_add((((__tid).x) as usize));
                        let stride: usize = ((m / 4usize)).wrapping_add(1usize);
                        let mut c: f32 = __ctx_c.get(__w as usize);
                        let rows: usize = (stride).wrapping_mul(2usize);
                        for k_3 in (0usize)..(rows) {
                            c = (c + s.get(((k_3).wrapping_add(lin) % 64usize)));
                        }
                        __ctx_c.set(__w as usize, c);
                    },
                );
            __blk.warp_sync(&__WS8, 4294967295u32);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((((__tid).y) as usize))
                            .wrapping_mul((((__bdim).x) as usize)))
                            .wrapping_add((((__tid).x) as usize));
                        let mut a: f32 = __ctx_a.get(__w as usize);
                        let mut b: i32 = __ctx_b.get(__w as usize);
                        let mut c: f32 = __ctx_c.get(__w as usize);
                        let base: usize = ((((__bidx).x) as usize)).wrapping_mul(n);
                        out.set((3usize).wrapping_mul((base).wrapping_add(lin)), a);
                        out.set(
                            ((3usize).wrapping_mul((base).wrapping_add(lin)))
                                .wrapping_add(1usize),
                            ((b) as f32),
                        );
                        out.set(
                            ((3usize).wrapping_mul((base).wrapping_add(lin)))
                                .wrapping_add(2usize),
                            c,
                        );
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
            let x = ::rumba::kernel::wil::GlobalIn::<
                f32,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let out = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            let m: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[2usize],
                2usize,
            )?;
            let wrap: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[3usize],
                3usize,
            )?;
            let span: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[4usize],
                4usize,
            )?;
            let skip: u32 = <u32 as ::rumba::kernel::Param>::view(
                &__args[5usize],
                5usize,
            )?;
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
                        >(__blk, &x, &out, m, wrap, span, skip),
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
                        >(__blk, &x, &out, m, wrap, span, skip),
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
                        >(__blk, &x, &out, m, wrap, span, skip),
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
                        >(__blk, &x, &out, m, wrap, span, skip),
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
// ---- lane_loop_beside_fault
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
            x: &::rumba::kernel::wil::GlobalIn<'_, f32, 1usize, __R>,
            out: &::rumba::kernel::GlobalView<'_, f32>,
            m: usize,
            d: i32,
        ) {
            const __WS0: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __WS1: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            const __WS2: ::rumba::kernel::wil::WarpSite = ::rumba::kernel::wil::WarpSite::new(
                ::rumba::kernel::wil::WarpKind::Sync,
                ::core::file!(),
                ::core::line!(),
                ::core::column!(),
            );
            let __bidx = __blk.block_idx();
            let __bdim = __blk.block_dim();
            let __gdim = __blk.grid_dim();
            let x = *x;
            let out = *out;
            let __ctx_a = __blk.context::<f32>();
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((__tid).x) as usize);
                        let mut a: f32 = __ctx_a.get(__w as usize);
                        a = x.get((lin % 64usize));
                        __ctx_a.set(__w as usize, a);
                    },
                );
            __blk.warp_sync(&__WS0, 4294967295u32);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((__tid).x) as usize);
                        let q: i32 = (7i32 / (((lin) as i32)).wrapping_sub(d));
                        let mut a: f32 = __ctx_a.get(__w as usize);
                        for k in (0usize)..(m) {
                            a = (a + x.get((k % 64usize)));
                        }
                        __ctx_a.set(__w as usize, a);
                    },
                );
            __blk.warp_sync(&__WS1, 4294967295u32);
            __blk
                .each_x(
                    ((d) as i128),
                    ((d) as i128) + 1,
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((__tid).x) as usize);
                        if (((lin) as i32) == d) {
                            {
                                __blk.exit(__w);
                                return;
                            }
                        }
                    },
                );
            if __blk.all_exited() {
                return;
            }
            __blk.warp_sync(&__WS2, 4294967295u32);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((__tid).x) as usize);
                        let q: i32 = (7i32 / (((lin) as i32)).wrapping_sub(d));
                        let mut a: f32 = __ctx_a.get(__w as usize);
                        out.set(lin, (a + ((q) as f32)));
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
            let x = ::rumba::kernel::wil::GlobalIn::<
                f32,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let out = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            let m: usize = <usize as ::rumba::kernel::Param>::view(
                &__args[2usize],
                2usize,
            )?;
            let d: i32 = <i32 as ::rumba::kernel::Param>::view(&__args[3usize], 3usize)?;
            match __cfg.block.to_array() {
                [256u32, 1u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<256u32, 1u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &out, m, d),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &out, m, d),
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
// ---- local_lengths
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
            x: &::rumba::kernel::wil::GlobalIn<'_, f32, 1usize, __R>,
            out: &::rumba::kernel::GlobalView<'_, f32>,
            m: usize,
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
            let x = *x;
            let out = *out;
            let __loc_loc = __blk.local_arrays::<f32, 1usize>([4usize]);
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((__tid).x) as usize);
                        let loc = __loc_loc.of(__w);
                        loc.zero();
                        loc.set((lin % 4usize), 1.5f32);
                    },
                );
            let span: usize = __loc_loc.len();
            let __trues1: u32 = 0;
            let _ = match __blk.barrier(&__BS0, __trues1) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => return,
            };
            __blk
                .each(
                    #[inline(always)]
                    |__w: u32, __tid: ::rumba::kernel::Dim3| {
                        let lin: usize = (((__tid).x) as usize);
                        let loc = __loc_loc.of(__w);
                        let mut a: f32 = (x.get((lin % 64usize))
                            + loc.get((lin % 4usize)));
                        for k in (0usize)..(m) {
                            a = (a
                                + (x.get((k % 64usize))
                                    + (((span).wrapping_add(loc.len())) as f32)));
                        }
                        out.set(lin, a);
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
            let x = ::rumba::kernel::wil::GlobalIn::<
                f32,
                1usize,
                __R,
            >::from_arg(&__args[0usize], 0usize)?;
            let out = <::rumba::kernel::Arr<
                f32,
            > as ::rumba::kernel::Param>::view(&__args[1usize], 1usize)?;
            let m: usize = <usize as ::rumba::kernel::Param>::view(
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
                        |__blk| __body::<_, __R, __W>(__blk, &x, &out, m),
                    )
                }
                [16u32, 16u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<16u32, 16u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &out, m),
                    )
                }
                [32u32, 32u32, 1u32] => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Fixed<32u32, 32u32, 1u32>,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &out, m),
                    )
                }
                _ => {
                    ::rumba::kernel::wil::run_blocks::<
                        ::rumba::kernel::wil::Dyn,
                        _,
                    >(
                        __launch.name(),
                        &__cfg,
                        |__blk| __body::<_, __R, __W>(__blk, &x, &out, m),
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
